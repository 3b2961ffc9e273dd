import { and, eq, lte, sql } from "drizzle-orm";
import { idempotencyKeys } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { AnswerRecord } from "@/lib/domain/context";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";
import { SvcError } from "@/lib/errors";
import { seal, unseal } from "@/lib/crypto/secrets";
import { canonicalHash } from "./canonical-json";

function openBody(stored: unknown): unknown {
  return JSON.parse(unseal((stored as { sealed: string }).sealed));
}

/** docs/spec/decisions.md "Idempotency": scoped to (project, method, path), kept 24 h. */
const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** A claim older than this belongs to a request that died; a retry may take it over. */
const IN_PROGRESS_LEASE_MS = 60_000;
const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export interface IdempotencyScope {
  projectId: string;
  method: string;
  path: string;
  key: string;
}

export type Claim = { kind: "claimed"; id: string } | { kind: "replay"; status: number; body: unknown };

/** Header `Idempotency-Key` or body `idempotency_key`; both present and different is a 400. */
export function idempotencyKeyOf(headerValue: string | null, body: unknown): string | null {
  const bodyValue = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>).idempotency_key : undefined;
  if (bodyValue !== undefined && typeof bodyValue !== "string") {
    throw new SvcError("invalid_request", "idempotency_key must be a string.", { issues: { idempotency_key: ["Expected a string."] } });
  }
  if (headerValue !== null && bodyValue !== undefined && headerValue !== bodyValue) {
    throw new SvcError("invalid_request", "The Idempotency-Key header and the body's idempotency_key differ.", {
      issues: { idempotency_key: ["Must equal the Idempotency-Key header when both are sent."] },
    });
  }
  const key = headerValue ?? bodyValue ?? null;
  if (key !== null && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    throw new SvcError("invalid_request", `Idempotency keys are 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, {
      issues: { idempotency_key: [`Must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`] },
    });
  }
  return key;
}

/** The request's fingerprint: the canonical body without the key itself (header and body forms match). */
export function requestHashOf(body: unknown): string {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const { idempotency_key: _ignored, ...rest } = body as Record<string, unknown>;
    return canonicalHash(rest);
  }
  return canonicalHash(body ?? null);
}

/**
 * The claim as one statement: a new key is inserted, an expired record of the same key is replaced by
 * the claim. Its placeholders are named with `prefix` (claimValues), so that a verb's read can run it
 * as a CTE beside placeholders of its own (FoldedClaim).
 */
export function claimInsert(db: Db, prefix = "") {
  const p = (name: string) => sql.placeholder(prefix + name);
  return db
    .insert(idempotencyKeys)
    .values({
      id: p("id"),
      projectId: p("projectId"),
      method: p("method"),
      path: p("path"),
      key: p("key"),
      requestHash: p("requestHash"),
      state: "in_progress",
      lockedUntil: p("lockedUntil"),
      createdAt: p("now"),
      expiresAt: p("expiresAt"),
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.projectId, idempotencyKeys.method, idempotencyKeys.path, idempotencyKeys.key],
      set: {
        id: sql`excluded.id`,
        requestHash: sql`excluded.request_hash`,
        state: sql`excluded.state`,
        lockedUntil: sql`excluded.locked_until`,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
        responseStatus: null,
        responseBody: null,
      },
      setWhere: sql`${idempotencyKeys.expiresAt} <= excluded.created_at`,
    })
    .returning({ id: idempotencyKeys.id });
}

/** claimInsert's placeholder values. */
export function claimValues(prefix: string, scope: IdempotencyScope, id: string, requestHash: string, now: Date): Record<string, unknown> {
  const values: Record<string, unknown> = {
    ...scope,
    id,
    requestHash,
    lockedUntil: new Date(now.getTime() + IN_PROGRESS_LEASE_MS),
    now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  };
  return prefix ? Object.fromEntries(Object.entries(values).map(([name, value]) => [prefix + name, value])) : values;
}

/** Built once per database: it runs on every POST that carries a key (and does not fold it into its read). */
const claimStatement = preparedPerDb((db) => claimInsert(db).prepare("idempotency_claim"));

export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope, requestHash: string, now: Date): Promise<Claim> {
  const id = newId("idempotencyKey");
  const inserted = await claimStatement(db).execute(claimValues("", scope, id, requestHash, now));
  if (inserted.length) return { kind: "claimed", id };

  const where = and(
    eq(idempotencyKeys.projectId, scope.projectId),
    eq(idempotencyKeys.method, scope.method),
    eq(idempotencyKeys.path, scope.path),
    eq(idempotencyKeys.key, scope.key),
  );
  const [existing] = await db.select().from(idempotencyKeys).where(where);
  if (!existing) return claimIdempotencyKey(db, scope, requestHash, now);
  if (existing.requestHash !== requestHash) {
    throw new SvcError("idempotency_key_reused", "This Idempotency-Key was already used with a different request. Use a new key for a new request.");
  }
  if (existing.state === "completed") return { kind: "replay", status: existing.responseStatus ?? 200, body: openBody(existing.responseBody) };
  if (existing.lockedUntil && existing.lockedUntil > now) {
    throw new SvcError(
      "idempotency_key_in_progress",
      "A request with this Idempotency-Key is still in progress. Retry after it finishes.",
      {},
      { "Retry-After": "1" },
    );
  }
  // The first request died holding the claim: take it over, unless another retry just did.
  const taken = await db
    .update(idempotencyKeys)
    .set({ lockedUntil: new Date(now.getTime() + IN_PROGRESS_LEASE_MS) })
    .where(and(eq(idempotencyKeys.id, existing.id), eq(idempotencyKeys.state, "in_progress"), lte(idempotencyKeys.lockedUntil, now)))
    .returning({ id: idempotencyKeys.id });
  if (taken.length) return { kind: "claimed", id: existing.id };
  throw new SvcError(
    "idempotency_key_in_progress",
    "A request with this Idempotency-Key is still in progress. Retry after it finishes.",
    {},
    { "Retry-After": "1" },
  );
}

/**
 * Stored responses can hold secrets (a project's webhook_secret on create and rotate), so they are
 * sealed at rest like every other secret.
 */
export async function completeIdempotencyKey(db: Db, id: string, status: number, body: unknown): Promise<void> {
  await completeStatement(db).execute({ id, status, body: storedBodyOf(JSON.stringify(body)) });
}

/** The record's response_body: the answer's JSON text, sealed. */
function storedBodyOf(text: string): string {
  return JSON.stringify({ sealed: seal(text) });
}

/** completeIdempotencyKey (a 200) as a CTE of a verb's own statement: see AnswerRecord. */
const ANSWER_CTE = sql`, "answered" as (update ${idempotencyKeys} set "state" = 'completed', "response_status" = 200, "response_body" = ${sql.placeholder("recordBody")}::jsonb, "locked_until" = null where "id" = ${sql.placeholder("recordId")})`;

export interface ClaimAnswerRecord extends AnswerRecord {
  /** The answer's JSON text once a verb stored it: the response reuses it instead of serializing again. */
  text: string | null;
}

/** The AnswerRecord of a claim: a verb that stores the answer with its write completes the claim in the same statement. */
export function answerRecordOf(claimId: string): ClaimAnswerRecord {
  const record: ClaimAnswerRecord = {
    cte: ANSWER_CTE,
    stored: false,
    text: null,
    values(answer) {
      const text = JSON.stringify(answer);
      record.text = text;
      return { recordId: claimId, recordBody: storedBodyOf(text) };
    },
  };
  return record;
}

const completeStatement = preparedPerDb((db) =>
  db
    .update(idempotencyKeys)
    // Placeholders inside sql``: the body goes as JSON text, as drizzle itself sends jsonb.
    .set({ state: "completed", responseStatus: sql`${sql.placeholder("status")}`, responseBody: sql`${sql.placeholder("body")}`, lockedUntil: null })
    .where(eq(idempotencyKeys.id, sql.placeholder("id")))
    .prepare("idempotency_complete"),
);

/**
 * A request that failed did nothing (every write is transactional), so its claim is dropped and the
 * client may retry with the same key, as the spec asks after 429 and 503.
 */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
}
