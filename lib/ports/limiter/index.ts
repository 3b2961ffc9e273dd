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
  /** Gives a consumed point back (a request that was not carried out after all). */
  refund(kind: BucketKind, key: string, limit: number, windowSeconds: number): Promise<void>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  db: Db;
  redis?: Redis | null;
}

export function createLimiter({ db, redis }: LimiterOptions): Limiter {
  const instances = new Map<string, RateLimiterAbstract>();

  function instance(kind: BucketKind, limit: number, windowSeconds: number): RateLimiterAbstract {
    const id = `${kind}:${limit}:${windowSeconds}`;
    let limiter = instances.get(id);
    if (limiter) return limiter;
    const base = { points: limit, duration: windowSeconds, keyPrefix: `svc:${kind}` };
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

  function toResult(res: RateLimiterRes, limit: number, allowed: boolean): HitResult {
    return {
      allowed,
      limit,
      remaining: Math.max(0, res.remainingPoints),
      resetAt: new Date(Date.now() + Math.max(0, res.msBeforeNext)),
    };
  }

  return {
    backend: redis ? "redis" : "memory",
    async hit(kind, key, limit, windowSeconds) {
      try {
        const res = await instance(kind, limit, windowSeconds).consume(key, 1);
        return toResult(res, limit, true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return toResult(error, limit, false);
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
}
