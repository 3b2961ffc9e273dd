import { and, asc, count, eq, inArray } from "drizzle-orm";
import { functionSecrets } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { seal } from "@/lib/crypto/secrets";
import { invalidRequest } from "@/lib/errors";
import { MAX_SECRETS_PER_FUNCTION, SECRET_NAME_PATTERN } from "@/lib/shared/functions";
import { recordAudit } from "@/lib/domain/audit/record";
import { bumpFunctionsRevision } from "@/lib/domain/projects/functions-revision";
import { getFunctionRow } from "./crud";

/**
 * Write-only secrets (decisions.md "Hosted functions"): sealed with AES-256-GCM at rest, visible to
 * the function's code as `env.NAME`, and never returned: responses list names only.
 */

async function secretNames(ctx: Ctx, functionId: string) {
  const rows = await ctx.db
    .select({ name: functionSecrets.name, updatedAt: functionSecrets.updatedAt })
    .from(functionSecrets)
    .where(eq(functionSecrets.functionId, functionId))
    .orderBy(asc(functionSecrets.name));
  return {
    object: "function_secrets" as const,
    function_id: functionId,
    data: rows.map((row) => ({ name: row.name, updated_at: row.updatedAt.toISOString() })),
  };
}

export async function listSecrets(ctx: Ctx, idOrSlug: string) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  return secretNames(ctx, fn.id);
}

/** PUT: `{"NAME": "value"}` sets, `{"NAME": null}` deletes; all in one transaction, at most 50 names after it. */
export async function putSecrets(ctx: Ctx, idOrSlug: string, changes: Record<string, string | null>) {
  const fn = await getFunctionRow(ctx, idOrSlug);
  const bad = Object.keys(changes).filter((name) => !SECRET_NAME_PATTERN.test(name));
  if (bad.length)
    throw invalidRequest("Secret names match ^[A-Z][A-Z0-9_]{0,63}$.", Object.fromEntries(bad.map((name) => [name, ["Not a valid secret name."]])));
  // env.KV is the function's key-value store: a secret of that name could never be read.
  if ("KV" in changes && changes.KV !== null)
    throw invalidRequest("KV is reserved: env.KV is the function's key-value store.", { KV: ["Choose another name."] });
  const sets = Object.entries(changes).filter((entry): entry is [string, string] => entry[1] !== null);
  const deletes = Object.keys(changes).filter((name) => changes[name] === null);
  await ctx.db.transaction(async (tx) => {
    const existing = new Set(
      (await tx.select({ name: functionSecrets.name }).from(functionSecrets).where(eq(functionSecrets.functionId, fn.id))).map((row) => row.name),
    );
    const deleted = deletes.length
      ? await tx
          .delete(functionSecrets)
          .where(and(eq(functionSecrets.functionId, fn.id), inArray(functionSecrets.name, deletes)))
          .returning({ name: functionSecrets.name })
      : [];
    // One entry per secret, by NAME: its value never reaches the log. Deleting a name that was not there changed nothing.
    const target = { type: "function" as const, id: fn.id };
    for (const { name } of deleted) await recordAudit({ ...ctx, db: tx }, { action: "function.secret_deleted", target, details: { slug: fn.slug, name } });
    for (const [name] of sets) {
      await recordAudit({ ...ctx, db: tx }, { action: "function.secret_set", target, details: { slug: fn.slug, name, created: !existing.has(name) } });
    }
    for (const [name, value] of sets) {
      await tx
        .insert(functionSecrets)
        .values({ functionId: fn.id, name, sealedValue: seal(value), updatedAt: ctx.now })
        .onConflictDoUpdate({ target: [functionSecrets.functionId, functionSecrets.name], set: { sealedValue: seal(value), updatedAt: ctx.now } });
    }
    const [total] = await tx.select({ n: count() }).from(functionSecrets).where(eq(functionSecrets.functionId, fn.id));
    if ((total?.n ?? 0) > MAX_SECRETS_PER_FUNCTION) {
      throw invalidRequest(`A function has at most ${MAX_SECRETS_PER_FUNCTION} secrets; this change would leave ${total!.n}.`, {
        secrets: [`Delete some (send "NAME": null) or keep at most ${MAX_SECRETS_PER_FUNCTION}.`],
      });
    }
    await bumpFunctionsRevision(tx, ctx.project.id);
  });
  return secretNames(ctx, fn.id);
}
