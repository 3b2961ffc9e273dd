import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import { errorKind } from "@/lib/error-kind";
import { rateLimitCounters } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/**
 * Limiter port over rate-limiter-flexible. Three kinds of bucket:
 *  - "request": per-key requests per window. Redis when configured (falls back to memory if Redis
 *    is down: availability of the API matters more than a perfect count there).
 *  - "quota": per-key requests per calendar month. Redis, else the database (also while Redis is
 *    down), so it survives restarts.
 *  - "strict": pair pacing. Redis when configured, and NO fallback: unreachable → LimiterUnavailable,
 *    so a send is never unpaced.
 */
export type BucketKind = "request" | "quota" | "strict";

export interface HitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the window resets (or the next slot frees up). */
  resetAt: Date;
  /** How long until then, as the limiter counts it: a Retry-After needs no clock of the caller's. */
  msBeforeReset: number;
}

export class LimiterUnavailable extends errorKind("LimiterUnavailable") {
  constructor(cause: unknown) {
    super(`Rate limiter backend unreachable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "LimiterUnavailable";
  }
}

export interface Limiter {
  readonly backend: "memory" | "redis";
  hit(kind: BucketKind, key: string, limit: number, windowSeconds: number): Promise<HitResult>;
  /**
   * hit() for many keys of one kind and window (a broadcast's pair slots): whether each was allowed,
   * in order. On Redis one script call for all of them, with hit()'s exact counting.
   */
  hitMany(kind: BucketKind, keys: string[], limit: number, windowSeconds: number): Promise<boolean[]>;
  /** Gives a consumed point back (a request that was not carried out after all). */
  refund(kind: BucketKind, key: string, limit: number, windowSeconds: number): Promise<void>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  db: Db;
  redis?: Redis | null;
  /** What every counter's key starts with (default "svc"): a test app's own, so that no run sees another's Redis counters. */
  keyPrefix?: string;
}

/**
 * rate-limiter-flexible's own counting script (RateLimiterRedis: SET NX with the window, INCRBY, keep
 * the expiry), run for each key: hit() and hitMany() count in the same keys the same way. Returns the
 * points consumed per key.
 */
const INCR_MANY = `
local out = {}
for i, key in ipairs(KEYS) do
  redis.call('set', key, 0, 'EX', ARGV[2], 'NX')
  local consumed = redis.call('incrby', key, ARGV[1])
  if redis.call('pttl', key) == -1 then redis.call('expire', key, ARGV[2]) end
  out[i] = consumed
end
return out`;

/** A count as the library reports it (a RateLimiterRes, or the same two fields of a direct call), as the port's HitResult. */
function toResult(res: Pick<RateLimiterRes, "remainingPoints" | "msBeforeNext">, limit: number, allowed: boolean): HitResult {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: new Date(Date.now() + Math.max(0, res.msBeforeNext)),
    msBeforeReset: Math.max(0, res.msBeforeNext),
  };
}

/** The command rate-limiter-flexible defines on an ioredis client: [points consumed, ms left in the window]. */
interface CountingCommand {
  rlflxIncr(key: string, points: string, windowSeconds: string, limit: string, duration: string): Promise<[number, number]>;
}

/**
 * hit() on a ready Redis: rate-limiter-flexible's own counting command (rlflxIncr, defined on the
 * client by connectRedis) called directly, the same key and the same counting, without the library's
 * four promise layers and result objects around it; three hits a send made them a visible share of
 * the web's CPU and garbage per POST /messages (README "Performance"). Undefined when the call
 * failed: the caller then goes through the library, whose insurance covers a Redis that is away.
 */
async function hitOnRedis(client: Redis, rlKey: string, kind: BucketKind, limit: number, windowSeconds: number): Promise<HitResult | undefined> {
  let reply: [number, number];
  try {
    reply = await (client as Redis & CountingCommand).rlflxIncr(rlKey, "1", String(windowSeconds), String(limit), String(windowSeconds));
  } catch (error) {
    // Pacing has no insurance: a failed call is "not now", never a second try that could count twice.
    if (kind === "strict") throw new LimiterUnavailable(error);
    return undefined;
  }
  const [consumed, msBeforeNext] = reply;
  return toResult({ remainingPoints: limit - consumed, msBeforeNext }, limit, consumed <= limit);
}

export function createLimiter({ db, redis, keyPrefix = "svc" }: LimiterOptions): Limiter {
  const instances = new Map<string, RateLimiterAbstract>();

  /** The Redis key the library counts `key` of `kind` in (its keyPrefix, then the key): hit and hitMany count there. */
  const redisKey = (kind: BucketKind, key: string) => `${keyPrefix}:${kind}:${key}`;

  function instance(kind: BucketKind, limit: number, windowSeconds: number): RateLimiterAbstract {
    const id = `${kind}:${limit}:${windowSeconds}`;
    let limiter = instances.get(id);
    if (limiter) return limiter;
    const base = { points: limit, duration: windowSeconds, keyPrefix: `${keyPrefix}:${kind}` };
    const durable = () => new RateLimiterDrizzle({ ...base, storeClient: db, schema: rateLimitCounters, clearExpiredByTimeout: false });
    if (redis) {
      // While Redis is down, request windows count in memory and the monthly quota in the database;
      // pacing ("strict") has no insurance on purpose: it must fail closed (503).
      const insurance = kind === "request" ? new RateLimiterMemory(base) : kind === "quota" ? durable() : undefined;
      limiter = new RateLimiterRedis({ ...base, storeClient: redis, rejectIfRedisNotReady: true, ...(insurance ? { insuranceLimiter: insurance } : {}) });
    } else if (kind === "quota") {
      limiter = durable();
    } else {
      limiter = new RateLimiterMemory(base);
    }
    instances.set(id, limiter);
    return limiter;
  }

  const limiter: Limiter = {
    backend: redis ? "redis" : "memory",
    async hit(kind, key, limit, windowSeconds) {
      if (redis?.status === "ready" && Number.isInteger(windowSeconds) && windowSeconds >= 1) {
        const counted = await hitOnRedis(redis, redisKey(kind, key), kind, limit, windowSeconds);
        if (counted) return counted;
      }
      try {
        const res = await instance(kind, limit, windowSeconds).consume(key, 1);
        return toResult(res, limit, true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return toResult(error, limit, false);
        throw new LimiterUnavailable(error);
      }
    },
    async hitMany(kind, keys, limit, windowSeconds) {
      if (keys.length === 0) return [];
      // The request kind has a memory fallback while Redis is down; hit() keeps that behaviour.
      if (!redis || kind === "request") return Promise.all(keys.map(async (key) => (await limiter.hit(kind, key, limit, windowSeconds)).allowed));
      if (redis.status !== "ready") throw new LimiterUnavailable(new Error("Redis connection is not ready"));
      try {
        const consumed = (await redis.eval(INCR_MANY, keys.length, ...keys.map((key) => redisKey(kind, key)), 1, windowSeconds)) as number[];
        return consumed.map((n) => n <= limit);
      } catch (error) {
        throw new LimiterUnavailable(error);
      }
    },
    async refund(kind, key, limit, windowSeconds) {
      try {
        await instance(kind, limit, windowSeconds).reward(key, 1);
      } catch (error) {
        throw new LimiterUnavailable(error);
      }
    },
    async close() {
      instances.clear();
    },
  };
  return limiter;
}
