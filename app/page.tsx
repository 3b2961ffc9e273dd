import { SignedInRedirect, SignedOutRedirect } from "@/components/shell/home-redirect";
import { getSessionUser } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

/**
 * "/" has no page of its own: it sends the operator to their first project, a visitor to sign-in (or
 * to first-run setup). Which project and whether setup is needed come from the dashboard API, so that
 * part runs in the browser with a loading state.
 */
export default async function Home() {
  const user = await getSessionUser().catch(() => null);
  return user ? <SignedInRedirect /> : <SignedOutRedirect />;
}
