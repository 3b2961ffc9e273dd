import { and, asc, count, eq, gt, like } from "drizzle-orm";
import { functionKv, hostedFunctions } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { HostBridge } from "@/lib/ports/sandbox/types";
import { errorKind } from "@/lib/error-kind";
import { publicErrorText } from "@/lib/public-error";
import { unstorableReason } from "@/lib/text/storable";

/**
 * env.KV (decisions.md "Hosted functions"): one key space per function, strings in and out, with the
 * limits enforced here on the host (key ≤ 512 bytes, value ≤ 64 KiB, ≤ 1,000 keys, text Postgres can
 * store). A refusal rejects the promise inside the function with the message below; any other failure
 * goes through the one error boundary first (lib/public-error.ts), so no SQL reaches the function.
 */
const KV_LIMITS = { keyBytes: 512, valueBytes: 64 * 1024, keys: 1_000 } as const;

/** A limit the function's call broke: its message is what the function's code sees. */
class KvRefusal extends errorKind("KvRefusal") {}

function refuse(message: string): never {
  throw new KvRefusal(message);
}

function checkText(text: string, what: string): void {
  const reason = unstorableReason(text);
  if (reason) refuse(`${what} ${reason.replace("contains", "cannot contain")}`);
}

function checkKey(key: string, what = "KV keys"): void {
  if (typeof key !== "string" || key.length === 0) refuse(`${what} are non-empty strings`);
  if (Buffer.byteLength(key) > KV_LIMITS.keyBytes) refuse(`${what} are at most ${KV_LIMITS.keyBytes} bytes`);
  checkText(key, what);
}

function checkListOptions(options: { prefix?: string; cursor?: string }): void {
  if (options.prefix !== undefined && options.prefix !== "") checkKey(options.prefix, "KV list prefixes");
  if (options.cursor !== undefined && options.cursor !== "") checkKey(options.cursor, "KV list cursors");
}

/** Each call behind the boundary: our refusals as they are, anything else as its public text. */
function guarded<A extends unknown[], R>(functionId: string, call: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await call(...args);
    } catch (error) {
      if (KvRefusal.is(error)) throw error;
      // eslint-disable-next-line preserve-caught-error -- on purpose: the cause carries the SQL and its parameters, logged by publicErrorText
      throw new Error(`env.KV failed: ${publicErrorText(error, `functions ${functionId} env.KV`)}`);
    }
  };
}

function escapeLike(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function kvBridge(ctx: Pick<SystemCtx, "db" | "now">, functionId: string): HostBridge["kv"] {
  const kv = kvStore(ctx, functionId);
  return { get: guarded(functionId, kv.get), put: guarded(functionId, kv.put), delete: guarded(functionId, kv.delete), list: guarded(functionId, kv.list) };
}

function kvStore(ctx: Pick<SystemCtx, "db" | "now">, functionId: string): HostBridge["kv"] {
  const mine = eq(functionKv.functionId, functionId);
  return {
    async get(key) {
      checkKey(key);
      const [row] = await ctx.db
        .select({ value: functionKv.value })
        .from(functionKv)
        .where(and(mine, eq(functionKv.key, key)));
      return row?.value ?? null;
    },
    async put(key, value) {
      checkKey(key);
      if (typeof value !== "string") refuse("KV values are strings (JSON.stringify objects first)");
      if (Buffer.byteLength(value) > KV_LIMITS.valueBytes) refuse(`KV values are at most ${KV_LIMITS.valueBytes} bytes`);
      checkText(value, "KV values");
      await ctx.db.transaction(async (tx) => {
        const [existing] = await tx
          .select({ key: functionKv.key })
          .from(functionKv)
          .where(and(mine, eq(functionKv.key, key)));
        if (!existing) {
          // Serialises new keys of one function, so two concurrent puts cannot both take the last slot.
          await tx.select({ id: hostedFunctions.id }).from(hostedFunctions).where(eq(hostedFunctions.id, functionId)).for("update");
          const [total] = await tx.select({ n: count() }).from(functionKv).where(mine);
          if ((total?.n ?? 0) >= KV_LIMITS.keys) refuse(`KV holds at most ${KV_LIMITS.keys} keys per function; delete some first`);
        }
        await tx
          .insert(functionKv)
          .values({ functionId, key, value, updatedAt: ctx.now })
          .onConflictDoUpdate({ target: [functionKv.functionId, functionKv.key], set: { value, updatedAt: ctx.now } });
      });
    },
    async delete(key) {
      checkKey(key);
      await ctx.db.delete(functionKv).where(and(mine, eq(functionKv.key, key)));
    },
    async list(options) {
      checkListOptions(options);
      const limit = Math.min(Math.max(Math.trunc(options.limit ?? KV_LIMITS.keys), 1), KV_LIMITS.keys);
      const filters = [mine];
      if (options.prefix) filters.push(like(functionKv.key, `${escapeLike(options.prefix)}%`));
      if (options.cursor) filters.push(gt(functionKv.key, options.cursor));
      const rows = await ctx.db
        .select({ key: functionKv.key })
        .from(functionKv)
        .where(and(...filters))
        .orderBy(asc(functionKv.key))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const complete = rows.length <= limit;
      return { keys: page.map((row) => ({ name: row.key })), list_complete: complete, cursor: complete ? null : page[page.length - 1]!.key };
    },
  };
}
