import { encode } from "next-auth/jwt";
import { users } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { authSecret } from "@/lib/auth/options";
import { handleDashboard } from "@/lib/dashboard/dispatch";
import { addMembership } from "@/lib/domain/members/operators";
import type { Role } from "@/lib/domain/members/roles";
import type { CallResult, Seeded, TestApp } from "../support/app";

export interface Operator {
  userId: string;
  email: string;
  cookie: string;
}

/** A real next-auth session cookie for this user, signed and encrypted exactly as sign-in makes it. */
export async function sessionCookie(userId: string, email: string): Promise<string> {
  const token = await encode({ token: { sub: userId, email }, secret: authSecret() });
  return `next-auth.session-token=${token}`;
}

let counter = 0;

/** An operator who is a member of the seeded organization with `role` (no password: sessions are minted). */
export async function addOperator(
  app: TestApp,
  seeded: Pick<Seeded, "orgId">,
  role: Role,
  email = `op${++counter}-${Date.now()}@example.test`,
): Promise<Operator> {
  const userId = newId("user");
  await app.db.insert(users).values({ id: userId, email, name: `Operator ${counter}` });
  await addMembership(app.db, seeded.orgId, userId, role);
  return { userId, email, cookie: await sessionCookie(userId, email) };
}

export interface DashCallOptions {
  as?: Operator | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One /api/dashboard request through the real dashboard handler (session cookie, same-origin). */
export async function dash(app: TestApp, method: string, path: string, options: DashCallOptions = {}): Promise<CallResult> {
  const headers = new Headers(options.headers);
  if (options.as) headers.set("cookie", options.as.cookie);
  if (!headers.has("host")) headers.set("host", "svc.test");
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set("content-type", "application/json");
  }
  const url = new URL(`http://svc.test/api/dashboard${path}`);
  const response = await handleDashboard(new Request(url, { method, headers, body }), url.pathname.replace(/^\/api\/dashboard/, ""), app.runtime);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
