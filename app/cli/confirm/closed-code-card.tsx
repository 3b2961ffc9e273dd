import type { ReactNode } from "react";
import { AlertIcon, CheckCircleIcon, XCircleIcon } from "@/components/ui";
import type { CliCodeStatus } from "@/lib/client/cli-login";
import { OutcomeCard } from "./outcome-card";

const AGAIN = <code className="font-mono text-[13px] text-slate-700">npm run svc -- login</code>;

const COPY: Record<Exclude<CliCodeStatus, "pending">, { title: string; description: ReactNode; tone: "success" | "danger" | "warning" }> = {
  expired: {
    title: "This code has expired",
    description: <>Login codes last 10 minutes. Run {AGAIN} again for a new one; nothing was created.</>,
    tone: "warning",
  },
  claimed: {
    title: "This code was already used",
    description: <>The CLI has collected its key, so this code cannot be used again. To log in once more, run {AGAIN}.</>,
    tone: "warning",
  },
  approved: {
    title: "This login was already approved",
    description: "The CLI is collecting its key. Return to your terminal.",
    tone: "success",
  },
  denied: {
    title: "This login was denied",
    description: <>The CLI stopped without a key. To start over, run {AGAIN}.</>,
    tone: "danger",
  },
};

const ICONS = { success: <CheckCircleIcon />, danger: <XCircleIcon />, warning: <AlertIcon /> };

/** A code that can no longer be decided here: says what happened and what to do next. `byYou`: the operator just denied it. */
export function ClosedCodeCard({ status, byYou = false }: { status: Exclude<CliCodeStatus, "pending">; byYou?: boolean }) {
  const copy = COPY[status];
  if (byYou)
    return (
      <OutcomeCard tone="danger" icon={ICONS.danger} title="Login denied">
        The terminal shows &ldquo;Login denied&rdquo; and stops; no key was created.
      </OutcomeCard>
    );
  return (
    <OutcomeCard tone={copy.tone} icon={ICONS[copy.tone]} title={copy.title}>
      {copy.description}
    </OutcomeCard>
  );
}
