import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CliConfirmPage } from "./cli-confirm-page";
import { getSessionUser } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Confirm CLI login" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Where `svc login` sends the operator (its verification_url, `?code=` prefilled). Signed-out
 * visitors go to sign-in and come back to this same URL, code included, like the project pages.
 */
export default async function CliConfirm({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const code = typeof params.code === "string" ? params.code : null;
  const user = await getSessionUser().catch(() => null);
  if (!user) {
    const back = code ? `/cli/confirm?code=${encodeURIComponent(code)}` : "/cli/confirm";
    redirect(`/sign-in?callbackUrl=${encodeURIComponent(back)}`);
  }
  return <CliConfirmPage code={code} />;
}
