import { and, desc, eq, gt, inArray, isNull, lte, or } from "drizzle-orm";
import { apiKeys, cliDeviceCodes } from "@/lib/db/schema";
import type { Ctx, SystemCtx } from "@/lib/domain/context";
import { createApiKey, revokeKeyIfLive } from "@/lib/domain/keys";
import { keyCreatedAudit, revokeKey } from "@/lib/domain/keys/manage";
import { projectAccessFor, scopesOfRole } from "@/lib/domain/members";
import { recordAudit } from "@/lib/domain/audit/record";
import { hasScope } from "@/lib/shared/scopes";
import { seal, unseal } from "@/lib/crypto/secrets";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { formatUserCode, generateDeviceCode, generateUserCode, hashDeviceCode, normalizeUserCode } from "./codes";
import { assertMayCreateCode, lookUpAsGuess, retryAfter } from "./limits";

export { USER_CODE_ALPHABET } from "./codes";
export { CREATE_LIMIT, GUESS_LIMIT, MAX_PENDING_CODES } from "./limits";

/** docs/spec/decisions.md "Developer tools": a code lives 10 minutes; the CLI polls every 2 s. */
const DEVICE_CODE_TTL_SECONDS = 600;
const POLL_INTERVAL_SECONDS = 2;
/** A poll that arrives a little early (timer jitter, clock skew) is not punished. */
const POLL_SLACK_MS = 250;

type DeviceCodeRow = typeof cliDeviceCodes.$inferSelect;
export type DeviceCodeState = "pending" | "approved" | "denied" | "claimed" | "expired";

/** The CLI's host name as it may appear in a key name and on the confirmation page: plain host characters only. */
function cleanClientHost(raw: string | undefined | null): string {
  const cleaned = (raw ?? "").replace(/[^A-Za-z0-9._-]/g, "").slice(0, 64);
  return cleaned || "unknown host";
}

function stateOf(row: DeviceCodeRow, now: Date): DeviceCodeState {
  if (row.status === "CLAIMED") return "claimed";
  if (row.status === "DENIED") return "denied";
  if (row.expiresAt.getTime() <= now.getTime()) return "expired";
  return row.status === "APPROVED" ? "approved" : "pending";
}

/** `POST /api/cli/device-codes`: a new pending code, its device code returned once (only the hash is kept). */
export async function startDeviceCode(ctx: SystemCtx, input: { clientHost?: string | null; ip: string | null }) {
  await assertMayCreateCode(ctx, input.ip);
  const expiresAt = new Date(ctx.now.getTime() + DEVICE_CODE_TTL_SECONDS * 1000);
  // A user code is unique among the live ones: the operator's page finds the code by it alone.
  let userCode = generateUserCode();
  for (let attempt = 0; attempt < 5 && (await liveCodeExists(ctx, userCode)); attempt++) userCode = generateUserCode();
  const deviceCode = generateDeviceCode();
  await ctx.db.insert(cliDeviceCodes).values({
    id: newId("deviceCode", ctx.now.getTime()),
    deviceCodeHash: hashDeviceCode(deviceCode),
    userCode,
    status: "PENDING",
    clientHost: cleanClientHost(input.clientHost),
    requestIp: input.ip,
    expiresAt,
    createdAt: ctx.now,
  });
  const formatted = formatUserCode(userCode);
  return {
    object: "cli_device_code" as const,
    device_code: deviceCode,
    user_code: formatted,
    verification_url: `${ctx.settings.publicUrl.replace(/\/+$/, "")}/cli/confirm?code=${formatted}`,
    expires_in: DEVICE_CODE_TTL_SECONDS,
    interval: POLL_INTERVAL_SECONDS,
  };
}

async function liveCodeExists(ctx: SystemCtx, userCode: string): Promise<boolean> {
  const rows = await ctx.db
    .select({ id: cliDeviceCodes.id })
    .from(cliDeviceCodes)
    .where(and(eq(cliDeviceCodes.userCode, userCode), inArray(cliDeviceCodes.status, ["PENDING", "APPROVED"]), gt(cliDeviceCodes.expiresAt, ctx.now)))
    .limit(1);
  return rows.length > 0;
}

/** The newest code with this user code, looked up by this operator (lookUpAsGuess); an unknown or malformed one is a 404. */
async function byUserCode(ctx: SystemCtx, raw: string, userId: string): Promise<DeviceCodeRow> {
  const userCode = normalizeUserCode(raw);
  const row = await lookUpAsGuess(ctx, userId, async () => {
    if (!userCode) return null;
    const [found] = await ctx.db.select().from(cliDeviceCodes).where(eq(cliDeviceCodes.userCode, userCode)).orderBy(desc(cliDeviceCodes.createdAt)).limit(1);
    return found ?? null;
  });
  if (!row) throw new SvcError("not_found", "No login code like that. Check it against your terminal, or run `svc login` again.");
  return row;
}

function codeWire(row: DeviceCodeRow, now: Date) {
  return {
    object: "cli_device_code" as const,
    user_code: formatUserCode(row.userCode),
    client_host: row.clientHost,
    request_ip: row.requestIp,
    status: stateOf(row, now),
    project_id: row.projectId,
    scopes: row.scopes,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/** What the confirmation page shows about a code (any signed-in operator may look: it holds nothing secret). */
export async function describeDeviceCode(ctx: SystemCtx, input: { userId: string; userCode: string }) {
  return codeWire(await byUserCode(ctx, input.userCode, input.userId), ctx.now);
}

function assertDecidable(row: DeviceCodeRow, now: Date) {
  const state = stateOf(row, now);
  if (state === "expired") throw new SvcError("expired_token", "This login code has expired. Run `svc login` again for a new one.");
  if (state !== "pending") throw new SvcError("conflict", `This login code was already ${state}.`);
}

/**
 * The operator approves: a secret key "CLI on <host>" is created in the chosen project with exactly
 * the chosen scopes, in the same transaction as the code's change and the `api_key.created` audit
 * entry. The operator needs keys:write in that project's organization; another organization's
 * project is a 404 like everywhere else.
 */
export async function approveDeviceCode(ctx: SystemCtx, input: { userId: string; userCode: string; projectId: string; scopes: string[]; ip?: string | null }) {
  const access = await projectAccessFor(ctx.db, input.userId, input.projectId);
  if (!access) throw new SvcError("not_found", `No project '${input.projectId}' in your organizations.`);
  if (!hasScope(scopesOfRole(access.role), "keys:write")) {
    throw new SvcError(
      "insufficient_scope",
      `Your role (${access.role}) does not allow creating API keys in this project: it needs the 'keys:write' permission. Ask an owner or admin of the organization.`,
      { required_scope: "keys:write" },
    );
  }
  const row = await byUserCode(ctx, input.userCode, input.userId);
  assertDecidable(row, ctx.now);
  const projectCtx: Ctx = {
    ...ctx,
    org: access.org,
    project: access.project,
    plan: access.plan,
    actor: { type: "user", id: access.user.id, role: access.role },
    ip: input.ip ?? null,
  };
  const key = await ctx.db.transaction(async (tx) => {
    const { key: created, value } = await createApiKey(tx, {
      organizationId: access.org.id,
      projectId: access.project.id,
      kind: "secret",
      name: `CLI on ${row.clientHost}`,
      scopes: input.scopes,
      createdByUserId: access.user.id,
    });
    const [updated] = await tx
      .update(cliDeviceCodes)
      .set({
        status: "APPROVED",
        projectId: access.project.id,
        organizationId: access.org.id,
        scopes: created.scopes,
        approvedByUserId: access.user.id,
        apiKeyId: created.id,
        sealedKey: seal(value),
        decidedAt: ctx.now,
      })
      .where(and(eq(cliDeviceCodes.id, row.id), eq(cliDeviceCodes.status, "PENDING"), gt(cliDeviceCodes.expiresAt, ctx.now)))
      .returning({ id: cliDeviceCodes.id });
    // Someone else decided first: roll the key back with the transaction.
    if (!updated) throw new SvcError("conflict", "This login code was decided a moment ago. Reload the page.");
    const audit = keyCreatedAudit(created);
    await recordAudit({ ...projectCtx, db: tx }, { ...audit, details: { ...audit.details, via: "cli_login" } });
    return created;
  });
  return { ...codeWire({ ...row, status: "APPROVED", projectId: key.projectId, scopes: key.scopes }, ctx.now), key_display: key.display, key_id: key.id };
}

/** The operator refuses: the CLI's next poll gets 403 access_denied. Any signed-in operator may deny. */
export async function denyDeviceCode(ctx: SystemCtx, input: { userId: string; userCode: string }) {
  const row = await byUserCode(ctx, input.userCode, input.userId);
  assertDecidable(row, ctx.now);
  const [updated] = await ctx.db
    .update(cliDeviceCodes)
    .set({ status: "DENIED", approvedByUserId: input.userId, decidedAt: ctx.now })
    .where(and(eq(cliDeviceCodes.id, row.id), eq(cliDeviceCodes.status, "PENDING")))
    .returning();
  if (!updated) throw new SvcError("conflict", "This login code was decided a moment ago. Reload the page.");
  return codeWire(updated, ctx.now);
}

/**
 * The CLI's poll. Pending → 428 authorization_pending; faster than the interval → 429; denied → 403;
 * expired or already claimed → 410. Approved → the key's value, exactly once: the sealed copy is
 * wiped in the same conditional update that marks the code claimed.
 */
export async function pollDeviceToken(ctx: SystemCtx, input: { deviceCode: string }) {
  const [row] = await ctx.db
    .select()
    .from(cliDeviceCodes)
    .where(eq(cliDeviceCodes.deviceCodeHash, hashDeviceCode(input.deviceCode)));
  if (!row) throw new SvcError("not_found", "Unknown device_code. Start again with `svc login`.");
  const earliest = new Date(ctx.now.getTime() - POLL_INTERVAL_SECONDS * 1000 + POLL_SLACK_MS);
  const [paced] = await ctx.db
    .update(cliDeviceCodes)
    .set({ lastPolledAt: ctx.now })
    .where(and(eq(cliDeviceCodes.id, row.id), or(isNull(cliDeviceCodes.lastPolledAt), lte(cliDeviceCodes.lastPolledAt, earliest))))
    .returning({ id: cliDeviceCodes.id });
  if (!paced) {
    const last = row.lastPolledAt?.getTime() ?? ctx.now.getTime();
    throw retryAfter(
      `Polling too fast: wait ${POLL_INTERVAL_SECONDS} s (the interval) between polls.`,
      (last + POLL_INTERVAL_SECONDS * 1000 - ctx.now.getTime()) / 1000,
    );
  }
  const state = stateOf(row, ctx.now);
  if (state === "pending") throw new SvcError("authorization_pending", "Waiting for the operator to confirm the code in the dashboard.");
  if (state === "denied") throw new SvcError("access_denied", "The login was denied in the dashboard.");
  if (state === "claimed") throw new SvcError("expired_token", "This login code was already used. Run `svc login` again.");
  if (state === "expired") {
    if (row.status === "APPROVED") await abandonApproved(ctx, row);
    throw new SvcError("expired_token", "The login code expired before it was confirmed and collected. Run `svc login` again.");
  }
  const [claimed] = await ctx.db
    .update(cliDeviceCodes)
    .set({ status: "CLAIMED", sealedKey: null, claimedAt: ctx.now })
    .where(and(eq(cliDeviceCodes.id, row.id), eq(cliDeviceCodes.status, "APPROVED")))
    .returning({ id: cliDeviceCodes.id });
  if (!claimed || !row.sealedKey || !row.apiKeyId) throw new SvcError("expired_token", "This login code was already used. Run `svc login` again.");
  const [key] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, row.apiKeyId));
  return {
    object: "cli_token" as const,
    api_key: unseal(row.sealedKey),
    key_id: row.apiKeyId,
    display: key?.display ?? null,
    project_id: row.projectId,
    scopes: row.scopes ?? [],
  };
}

/** An approved key nobody collected in time: its sealed value is dropped and the key revoked, so no unused live key lingers. */
async function abandonApproved(ctx: SystemCtx, row: DeviceCodeRow) {
  await ctx.db.transaction(async (tx) => {
    await tx.update(cliDeviceCodes).set({ sealedKey: null }).where(eq(cliDeviceCodes.id, row.id));
    if (row.apiKeyId) await revokeKeyIfLive(tx, row.apiKeyId, ctx.now);
  });
}

/** `svc logout`: the calling key revokes itself (audited as api_key.revoked by that key). */
export async function logoutKey(ctx: Ctx) {
  if (ctx.actor.type !== "api_key") throw new SvcError("forbidden", "Only an API key can log itself out.");
  return revokeKey(ctx, ctx.actor.id);
}
