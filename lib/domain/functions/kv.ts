import { and, asc, count, eq, gt, like } from "drizzle-orm";
import { functionKv, hostedFunctions } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { HostBridge } from "@/lib/ports/sandbox/types";

/**
 * env.KV (decisions.md "Hosted functions"): one key space per function, strings in and out, with the
 * limits enforced here on the host (key ≤ 512 bytes, value ≤ 64 KiB, ≤ 1,000 keys). A refusal
 * rejects the promise inside the function with the message below.
 */
export const KV_LIMITS = { keyBytes: 512, valueBytes: 64 * 1024, keys: 1_000 } as const;

function checkKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw new Error("KV keys are non-empty strings");
  if (Buffer.byteLength(key) > KV_LIMITS.keyBytes) throw new Error(`KV keys are at most ${KV_LIMITS.keyBytes} bytes`);
}

function escapeLike(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function kvBridge(ctx: Pick<SystemCtx, "db" | "now">, functionId: string): HostBridge["kv"] {
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
      if (typeof value !== "string") throw new Error("KV values are strings (JSON.stringify objects first)");
      if (Buffer.byteLength(value) > KV_LIMITS.valueBytes) throw new Error(`KV values are at most ${KV_LIMITS.valueBytes} bytes`);
      await ctx.db.transaction(async (tx) => {
        const [existing] = await tx
          .select({ key: functionKv.key })
          .from(functionKv)
          .where(and(mine, eq(functionKv.key, key)));
        if (!existing) {
          // Serialises new keys of one function, so two concurrent puts cannot both take the last slot.
          await tx.select({ id: hostedFunctions.id }).from(hostedFunctions).where(eq(hostedFunctions.id, functionId)).for("update");
          const [total] = await tx.select({ n: count() }).from(functionKv).where(mine);
          if ((total?.n ?? 0) >= KV_LIMITS.keys) throw new Error(`KV holds at most ${KV_LIMITS.keys} keys per function; delete some first`);
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
