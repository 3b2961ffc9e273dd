import { and, eq } from "drizzle-orm";
import { apiKeys } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { recordAudit } from "@/lib/domain/audit/record";
import { SvcError, invalidRequest, notFound } from "@/lib/errors";
import { createApiKey, listProjectKeys, revokeApiKey, type ApiKeyRow, type KeyKind } from "./index";

/** How the dashboard sees a key: never its value, which only the create response carries (once). */
function apiKeyWire(key: ApiKeyRow) {
  return {
    object: "api_key" as const,
    id: key.id,
    kind: key.kind,
    name: key.name,
    prefix: key.prefix,
    display: key.display,
    scopes: key.scopes,
    allowed_origins: key.allowedOrigins,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    created_by_user_id: key.createdByUserId,
  };
}

export async function listKeys(ctx: Ctx) {
  const rows = await listProjectKeys(ctx.db, ctx.project.id);
  return { object: "list" as const, data: rows.map(apiKeyWire), has_more: false };
}

/** One key of the project, revoked or not; another project's key is as unknown as a missing one. */
async function getApiKeyRowOrThrow(ctx: Pick<Ctx, "db" | "project">, id: string): Promise<ApiKeyRow> {
  const [key] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.projectId, ctx.project.id)))
    .limit(1);
  if (!key) throw notFound("api key", id);
  return key;
}

/**
 * The scopes an MCP client would hold with this key (the API keys page's MCP tools list). Only a live
 * secret key can call POST /api/v1/mcp (lib/api/mcp/server.ts admits "secret" keys), so any other is
 * refused with what to pick instead rather than shown an empty list.
 */
export async function mcpScopesOfKey(ctx: Pick<Ctx, "db" | "project">, id: string): Promise<string[]> {
  const key = await getApiKeyRowOrThrow(ctx, id);
  if (key.kind !== "secret") {
    throw invalidRequest("A publishable key cannot call the MCP server: pick a secret key.", { key_id: ["Not a secret key."] });
  }
  if (key.revokedAt) {
    throw invalidRequest("This key is revoked and can no longer call the MCP server: pick an active secret key.", { key_id: ["Revoked."] });
  }
  return key.scopes;
}

/** A browser origin is scheme + host (+ port), nothing else: `https://app.example.com`. */
function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.pathname !== "/" || url.search || url.hash || url.username) return null;
    return url.origin === value.replace(/\/$/, "") ? url.origin : null;
  } catch {
    return null;
  }
}

export async function createKey(ctx: Ctx, input: { kind: KeyKind; name: string; scopes?: string[] | undefined; allowed_origins?: string[] | undefined }) {
  const origins = input.allowed_origins ?? [];
  if (input.kind === "secret" && origins.length) {
    throw new SvcError("invalid_request", "Allowed origins apply to publishable keys only.", { issues: { allowed_origins: ["Only for publishable keys."] } });
  }
  const bad = origins.filter((o) => normalizeOrigin(o) === null);
  if (bad.length) {
    throw new SvcError("invalid_request", `Not a browser origin: ${bad.join(", ")}. Use scheme://host[:port], e.g. https://app.example.com.`, {
      issues: { allowed_origins: bad.map((o) => `'${o}' is not an origin.`) },
    });
  }
  const { key, value } = await ctx.db.transaction(async (tx) => {
    const created = await createApiKey(tx, {
      organizationId: ctx.org.id,
      projectId: ctx.project.id,
      kind: input.kind,
      name: input.name,
      scopes: input.scopes ?? [],
      allowedOrigins: [...new Set(origins.map((o) => normalizeOrigin(o)!))],
      createdByUserId: ctx.actor.type === "user" ? ctx.actor.id : null,
    });
    await recordAudit({ ...ctx, db: tx }, keyCreatedAudit(created.key));
    return created;
  });
  return { ...apiKeyWire(key), value };
}

export async function revokeKey(ctx: Ctx, id: string) {
  const key = await ctx.db.transaction(async (tx) => {
    const revoked = await revokeApiKey(tx, ctx.project.id, id, ctx.now);
    await recordAudit({ ...ctx, db: tx }, keyRevokedAudit(revoked));
    return revoked;
  });
  return apiKeyWire(key);
}

/** The audit entry of a new key: what it can do and how to recognise it, never its value. */
export function keyCreatedAudit(key: ApiKeyRow) {
  return {
    action: "api_key.created" as const,
    target: { type: "api_key" as const, id: key.id },
    details: { name: key.name, kind: key.kind, display: key.display, scopes: key.scopes },
  };
}

export function keyRevokedAudit(key: ApiKeyRow) {
  return {
    action: "api_key.revoked" as const,
    target: { type: "api_key" as const, id: key.id },
    details: { name: key.name, kind: key.kind, display: key.display },
  };
}
