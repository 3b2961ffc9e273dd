import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { RateLimiterRedis } from "rate-limiter-flexible";
import { createLimiter, LimiterUnavailable, type Limiter } from "@/lib/ports/limiter";
import { connectRedis } from "@/lib/ports/limiter/redis";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";

/**
 * hit() on a ready Redis calls the library's counting command itself (lib/ports/limiter/index.ts
 * hitOnRedis): it must count in the library's own key, the library's way, so a refund, hitMany and
 * the library's fallback path all see the same counter; and a failed call still takes the library's
 * insurance (request) or fails closed (strict). Real Redis only.
 */
const redisUrl = process.env.REDIS_URL;
const prefix = `test-${randomUUID()}`;
let db: DatabaseHandle;
let redis: Redis;
let limiter: Limiter;

describe.runIf(Boolean(redisUrl))("limiter.hit on Redis", () => {
  beforeAll(async () => {
    // Only the monthly quota's insurance uses the database, and these tests count no quota.
    db = await openDatabase({ dataDir: "memory://", migrate: false });
    redis = connectRedis(redisUrl!);
    await new Promise<void>((resolve, reject) => {
      redis.once("ready", () => resolve());
      redis.once("end", () => reject(new Error("redis closed")));
    });
    limiter = createLimiter({ db: db.db, redis, keyPrefix: prefix });
  });
  afterAll(async () => {
    redis?.disconnect();
    await db?.close();
  });

  it("counts in the library's key: the library reads the same points, and its refund is seen", async () => {
    const key = `key-${randomUUID()}`;
    const first = await limiter.hit("request", key, 3, 60);
    expect(first).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(first.msBeforeReset).toBeGreaterThan(59_000);
    expect(first.msBeforeReset).toBeLessThanOrEqual(60_000);
    expect(first.resetAt.getTime() - Date.now()).toBeGreaterThan(58_000);

    const library = new RateLimiterRedis({ storeClient: redis, points: 3, duration: 60, keyPrefix: `${prefix}:request` });
    expect((await library.get(key))?.consumedPoints).toBe(1);
    await library.consume(key, 1);
    expect(await limiter.hit("request", key, 3, 60)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await limiter.hit("request", key, 3, 60);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.msBeforeReset).toBeGreaterThan(0);

    await limiter.refund("request", key, 3, 60);
    await limiter.refund("request", key, 3, 60);
    expect(await limiter.hit("request", key, 3, 60)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("a window ends on time, and hitMany counts with it", async () => {
    const key = `pair-${randomUUID()}`;
    expect((await limiter.hit("strict", key, 1, 1)).allowed).toBe(true);
    expect(await limiter.hitMany("strict", [key], 1, 1)).toEqual([false]);
    expect((await limiter.hit("strict", key, 1, 1)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.hit("strict", key, 1, 1)).allowed).toBe(true);
  });

  it("a failed call: the request window falls back to its insurance, pacing fails closed", async () => {
    // A key of another type makes Redis itself refuse the counting script (WRONGTYPE).
    const key = `wrong-${randomUUID()}`;
    for (const kind of ["request", "strict"] as const) await redis.rpush(`${prefix}:${kind}:${key}`, "x");
    expect(await limiter.hit("request", key, 5, 60)).toMatchObject({ allowed: true, limit: 5 });
    const error = await limiter.hit("strict", key, 1, 6).catch((e: unknown) => e);
    expect(LimiterUnavailable.is(error)).toBe(true);
    for (const kind of ["request", "strict"] as const) await redis.del(`${prefix}:${kind}:${key}`);
  });
});
