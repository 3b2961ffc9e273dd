"use client";

import { canonicalUserCode } from "@/lib/client/cli-login";
import { CodeConfirmation } from "./code-confirmation";
import { CodeEntryCard } from "./code-entry-card";

/**
 * /cli/confirm: without a usable code in the URL the operator types the one their terminal shows;
 * with one, the request it belongs to and the approve / deny form. Keyed by the code so a new code
 * starts from a clean form.
 */
export function CliConfirmPage({ code }: { code: string | null }) {
  const userCode = canonicalUserCode(code);
  if (!userCode)
    return <CodeEntryCard key={code ?? ""} given={code} problem={code ? "That is not a login code: it has 8 letters, like BCDF-GHJK." : undefined} />;
  return <CodeConfirmation key={userCode} userCode={userCode} />;
}
