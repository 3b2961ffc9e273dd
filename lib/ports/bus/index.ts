import type { Redis } from "ioredis";
import type { Sql } from "postgres";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { memoryBus } from "./memory";
import { postgresBus } from "./postgres";
import { redisBus } from "./redis";

export type { BusPort, Unsubscribe } from "./types";
export { BUS_PAYLOAD_LIMIT_BYTES, BusPayloadTooLarge } from "./types";
import type { BusPort } from "./types";

export interface BusOptions {
  database: DatabaseHandle;
  /** The runtime's Redis (the limiter's client): publishes go through it; set only when REDIS_URL is. */
  redis?: Redis | null;
  /** Where the dedicated subscriber connection goes (the same REDIS_URL). */
  redisUrl?: string | null;
  /** What every Redis channel starts with (default "svc"): a test app's own, as the limiter's keys. */
  keyPrefix?: string;
}

/**
 * Chosen like the limiter and the queue (lib/server/runtime.ts): Redis pub/sub when Redis is configured
 * (every web process sees every other's publishes, whatever the database), else Postgres LISTEN/NOTIFY
 * on the application's own database and pool, else (PGlite: one process by construction) an
 * in-process emitter.
 */
export function createBus({ database, redis, redisUrl, keyPrefix = "svc" }: BusOptions): BusPort {
  if (redis && redisUrl) return redisBus({ publisher: redis, url: redisUrl, prefix: keyPrefix });
  if (database.kind === "postgres") return postgresBus((database.db as unknown as { $client: Sql }).$client);
  return memoryBus();
}
