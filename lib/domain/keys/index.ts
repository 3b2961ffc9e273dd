import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { apiKeys, organizations, plans, projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";
import { randomBase62, sha256Hex } from "@/lib/crypto/secrets";
import { SvcError, notFound } from "@/lib/errors";
import { ALL_SCOPES, PUBLISHABLE_SCOPES, isScope } from "@/lib/shared/scopes";
import { cachedAuthenticatedKey, forgetAuthenticatedKeys } from "./auth-cache";

export { forgetAuthenticatedKeys } from "./auth-cache";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type KeyKind = ApiKeyRow["kind"];

const KEY_PREFIX: Record<KeyKind, string> = { secret: "svc_live_", publishable: "svc_pub_" };
const KEY_SHAPE: Record<KeyKind, RegExp> = { secret: /^svc_live_[0-9A-Za-z]{32}$/, publishable: /^svc_pub_[0-9A-Za-z]{32}$/ };

export function generateKeyValue(kind: KeyKind): string {
  return KEY_PREFIX[kind] + randomBase62(32);
}

export function keyKindOf(value: string): KeyKind | null {
  if (KEY_SHAPE.secret.test(value)) return "secret";
  if (KEY_SHAPE.publishable.test(value)) return "publishable";
  return null;
}

/** `svc_live_ab12…9xYz`: enough to recognise a key, never enough to use it. */
function displayOf(value: string, kind: KeyKind): string {
  const body = value.slice(KEY_PREFIX[kind].length);
  return `${KEY_PREFIX[kind]}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export interface CreateKeyInput {
  organizationId: string;
  projectId: string;
  kind: KeyKind;
  name?: string | null;
  scopes: string[];
  allowedOrigins?: string[];
  createdByUserId?: string | null;
  /** Only for bootstrap: use exactly this value (SVC_BOOTSTRAP_KEY). */
  value?: string;
}

export function normalizeScopes(kind: KeyKind, scopes: string[]): string[] {
  if (kind === "publishable") return [...PUBLISHABLE_SCOPES];
  const unique = [...new Set(scopes)];
  if (unique.length === 0)
    throw new SvcError("invalid_request", "A key needs at least one scope.", { issues: { scopes: ["At least one scope is required."] } });
  const unknown = unique.filter((s) => s !== ALL_SCOPES && !isScope(s));
  if (unknown.length) {
    throw new SvcError("invalid_request", `Unknown scope(s): ${unknown.join(", ")}.`, { issues: { scopes: unknown.map((s) => `Unknown scope '${s}'.`) } });
  }
  return unique.includes(ALL_SCOPES) ? [ALL_SCOPES] : unique.sort();
}

/** Creates a key and returns its value once; only the SHA-256 hash is stored. */
export async function createApiKey(db: Db, input: CreateKeyInput): Promise<{ key: ApiKeyRow; value: string }> {
  const value = input.value ?? generateKeyValue(input.kind);
  if (keyKindOf(value) !== input.kind) throw new SvcError("invalid_request", `Key value is not a valid ${input.kind} key.`);
  const [key] = await db
    .insert(apiKeys)
    .values({
      id: newId("apiKey"),
      organizationId: input.organizationId,
      projectId: input.projectId,
      kind: input.kind,
      name: input.name ?? null,
      keyHash: sha256Hex(value),
      prefix: value.slice(0, 12),
      display: displayOf(value, input.kind),
      scopes: normalizeScopes(input.kind, input.scopes),
      allowedOrigins: input.allowedOrigins ?? [],
      createdByUserId: input.createdByUserId ?? null,
    })
    .returning();
  return { key: key!, value };
}

export interface AuthenticatedKey {
  key: ApiKeyRow;
  project: typeof projects.$inferSelect;
  org: typeof organizations.$inferSelect;
  plan: typeof plans.$inferSelect;
}

/**
 * Finds a live key by the hash of its value, kept for a moment (auth-cache.ts). Unknown, revoked and
 * malformed keys all give null.
 */
export async function findKeyByValue(db: Db, value: string, nowMs: number): Promise<AuthenticatedKey | null> {
  if (!keyKindOf(value)) return null;
  const hash = sha256Hex(value);
  return cachedAuthenticatedKey(db, hash, nowMs, async () => (await keyByHash(db).execute({ hash }))[0] ?? null);
}

/** Every authenticated request whose key this process does not keep (auth-cache.ts) starts here. */
const keyByHash = preparedPerDb((db) =>
  db
    .select({ key: apiKeys, project: projects, org: organizations, plan: plans })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
    .prepare("api_key_by_hash"),
);

const LAST_USED_RESOLUTION_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

/**
 * Records use at most once a minute per key per process: "last used" needs no per-request write.
 * null when there is nothing to write (most requests), so the caller awaits nothing.
 */
export function touchKey(db: Db, keyId: string, now: Date): Promise<void> | null {
  const previous = lastUsedWritten.get(keyId) ?? 0;
  if (now.getTime() - previous < LAST_USED_RESOLUTION_MS) return null;
  lastUsedWritten.set(keyId, now.getTime());
  return db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(eq(apiKeys.id, keyId))
    .then(() => {});
}

export async function listProjectKeys(db: Db, projectId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.projectId, projectId)).orderBy(desc(apiKeys.id));
}

export async function revokeApiKey(db: Db, projectId: string, keyId: string, now: Date): Promise<ApiKeyRow> {
  const [key] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .returning();
  if (!key) throw notFound("api key", keyId);
  forgetAuthenticatedKeys();
  return key;
}

/** Revokes a key unless it already is: an abandoned CLI login's key, which nobody is waiting to hear about. */
export async function revokeKeyIfLive(db: Db, keyId: string, now: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
  forgetAuthenticatedKeys();
}
