import { getToken } from "next-auth/jwt";
import { authSecret } from "@/lib/auth/options";
import { SvcError } from "@/lib/errors";

function cookiesOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    try {
      out[name] = decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      out[name] = part.slice(index + 1).trim();
    }
  }
  return out;
}

/**
 * The operator id in the request's next-auth session cookie (a signed, encrypted JWT), or null.
 * next-auth names the cookie `__Secure-…` when it was set over https, so both names are tried.
 */
async function sessionUserId(request: Request): Promise<string | null> {
  const cookies = cookiesOf(request);
  const secureCookie = Object.keys(cookies).some((name) => name.startsWith("__Secure-next-auth.session-token"));
  const token = await getToken({ req: { cookies, headers: request.headers } as never, secret: authSecret(), secureCookie });
  return typeof token?.sub === "string" ? token.sub : null;
}

/** The signed-in operator's id; 401 unauthenticated without a valid session. */
export async function requireUser(request: Request): Promise<string> {
  const userId = await sessionUserId(request);
  if (!userId) throw new SvcError("unauthenticated", "You are signed out. Sign in to continue.");
  return userId;
}
