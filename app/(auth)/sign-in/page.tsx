import type { Metadata } from "next";
import { getSessionUser } from "@/lib/auth/server";
import { safeCallbackUrl } from "../callback-url";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  // Someone already signed in sees who they are, but is not bounced away automatically: a session the
  // API no longer accepts (user removed) would otherwise loop between here and the dashboard.
  const user = await getSessionUser().catch(() => null);
  return (
    <SignInForm
      callbackUrl={safeCallbackUrl(params.callbackUrl)}
      signedInAs={user?.email ?? null}
      nextAuthError={typeof params.error === "string" ? params.error : null}
    />
  );
}
