import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { createLimiter, LimiterUnavailable, type Limiter } from "@/lib/ports/limiter";
import { connectRedis } from "@/lib/ports/limiter/redis";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";

/**
 * hitMany (a broadcast's pair slots in one call) counts in the same keys, the same way, as hit():
 * a key taken by one is refused by the other within the window, and free again after it. On real
 * Redis when REDIS_URL is set (one script call), and on the in-process limiter.
 */
const redisUrl = process.env.REDIS_URL;
let db: DatabaseHandle;
let redis: Redis | null = null;
const limiters: [string, Limiter][] = [];

beforeAll(async () => {
  db = await openDatabase({ migrate: true });
  if (redisUrl) {
    redis = connectRedis(redisUrl);
    await new Promise<void>((resolve, reject) => {
      redis!.once("ready", () => resolve());
      redis!.once("end", () => reject(new Error("redis closed")));
    });
    limiters.push(["redis", createLimiter({ db: db.db, redis })]);
  }
  limiters.push(["memory", createLimiter({ db: db.db })]);
});
afterAll(async () => {
  redis?.disconnect();
  await db?.close();
});

describe("limiter.hitMany", () => {
  it("allows each free key once per window and refuses keys hit() took, in order", async () => {
    for (const [, limiter] of limiters) {
      const run = randomUUID();
      const keys = ["a", "b", "c", "d"].map((k) => `pair:${run}:${k}`);
      expect((await limiter.hit("strict", keys[1]!, 1, 6)).allowed).toBe(true);
      expect(await limiter.hitMany("strict", keys, 1, 6)).toEqual([true, false, true, true]);
      // Taken by hitMany: hit() and hitMany() both refuse them now.
      expect((await limiter.hit("strict", keys[0]!, 1, 6)).allowed).toBe(false);
      expect(await limiter.hitMany("strict", [keys[2]!, `pair:${run}:e`], 1, 6)).toEqual([false, true]);
      expect(await limiter.hitMany("strict", [], 1, 6)).toEqual([]);
    }
  });

  it("frees the keys when the window ends, and a refund gives one back", async () => {
    for (const [, limiter] of limiters) {
      const run = randomUUID();
      const keys = [`pair:${run}:x`, `pair:${run}:y`];
      expect(await limiter.hitMany("strict", keys, 1, 1)).toEqual([true, true]);
      await limiter.refund("strict", keys[1]!, 1, 1);
      expect(await limiter.hitMany("strict", keys, 1, 1)).toEqual([false, true]);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await limiter.hitMany("strict", keys, 1, 1)).toEqual([true, true]);
    }
  });

  it.runIf(Boolean(redisUrl))("on an unreachable Redis throws LimiterUnavailable (pair pacing fails closed)", async () => {
    const dead = connectRedis("redis://127.0.0.1:1");
    try {
      const limiter = createLimiter({ db: db.db, redis: dead });
      const error = await limiter.hitMany("strict", ["pair:dead:1"], 1, 6).catch((e: unknown) => e);
      expect(LimiterUnavailable.is(error)).toBe(true);
    } finally {
      dead.disconnect();
    }
  });
});
