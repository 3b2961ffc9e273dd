import { and, asc, count, eq, gt } from "drizzle-orm";
import { cliDeviceCodes } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";

/**
 * The limits of `svc login` (README "svc login, svc logout"; docs/api-decisions.md "Developer
 * tools"). Creating a code needs no credential, and the operator's page looks codes up by the 8
 * letters alone, so both sides are bounded:
 * - new codes per client address (lib/api/client-ip.ts: the socket's address, forwarding headers only
 *   from SVC_TRUSTED_PROXIES), so one noisy client cannot use up what others need;
 * - pending codes overall, so no number of addresses can fill the table;
 * - lookups of codes that do not exist, per operator: guessing a pending code needs ~10^10 tries.
 */
export const CREATE_LIMIT = { points: 20, windowSeconds: 600 };
/** Pending (undecided, unexpired) codes the whole installation holds at once. */
export const MAX_PENDING_CODES = 1_000;
/** Lookups of unknown codes per operator per window; once used up, every lookup waits (no oracle). */
export const GUESS_LIMIT = { points: 10, windowSeconds: 600 };

/** A 429 rate_limit with Retry-After (whole seconds, at least 1). */
export function retryAfter(message: string, seconds: number): SvcError {
  const wait = Math.max(1, Math.ceil(seconds));
  return new SvcError("rate_limit", message, { retry_after: wait }, { "Retry-After": String(wait), "X-Svc-Limit-Type": "rate_limit" });
}

/** Before a new code: the client address's window, then the installation's pending codes. */
export async function assertMayCreateCode(ctx: SystemCtx, ip: string | null): Promise<void> {
  const hit = await ctx.ports.limiter.hit("request", `cli-device-code:${ip ?? "unknown"}`, CREATE_LIMIT.points, CREATE_LIMIT.windowSeconds);
  if (!hit.allowed) {
    throw retryAfter(
      `Too many login codes from this address (${CREATE_LIMIT.points} per ${CREATE_LIMIT.windowSeconds / 60} minutes). Retry later.`,
      hit.msBeforeReset / 1000,
    );
  }
  const live = and(eq(cliDeviceCodes.status, "PENDING"), gt(cliDeviceCodes.expiresAt, ctx.now));
  const [pending] = await ctx.db.select({ n: count() }).from(cliDeviceCodes).where(live);
  if ((pending?.n ?? 0) < MAX_PENDING_CODES) return;
  const [oldest] = await ctx.db
    .select({ expiresAt: cliDeviceCodes.expiresAt })
    .from(cliDeviceCodes)
    .where(live)
    .orderBy(asc(cliDeviceCodes.expiresAt))
    .limit(1);
  throw retryAfter(
    `Too many login codes are waiting for confirmation on this server (${MAX_PENDING_CODES}). Retry in a few minutes, when older ones have expired.`,
    oldest ? (oldest.expiresAt.getTime() - ctx.now.getTime()) / 1000 : 60,
  );
}

/**
 * One operator's lookup of a user code: a point is taken before the lookup and given back when the
 * code exists, so only unknown codes count. With the points used up every lookup is refused, found or
 * not, so the answer never tells a guess that hit from one that missed.
 */
export async function lookUpAsGuess<T>(ctx: SystemCtx, userId: string, lookUp: () => Promise<T | null>): Promise<T | null> {
  const key = `cli-user-code-lookup:${userId}`;
  const hit = await ctx.ports.limiter.hit("request", key, GUESS_LIMIT.points, GUESS_LIMIT.windowSeconds);
  if (!hit.allowed) {
    throw retryAfter(
      `Too many unknown login codes tried from your account (${GUESS_LIMIT.points} per ${GUESS_LIMIT.windowSeconds / 60} minutes). Check the code in your terminal and retry later.`,
      hit.msBeforeReset / 1000,
    );
  }
  const found = await lookUp();
  if (found) await ctx.ports.limiter.refund("request", key, GUESS_LIMIT.points, GUESS_LIMIT.windowSeconds);
  return found;
}
