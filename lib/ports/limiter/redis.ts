import { Redis } from "ioredis";

/**
 * A Redis client that fails fast: no offline queue and one attempt per command, so a dead Redis shows
 * up as an error within a second instead of requests hanging (pacing must then answer 503).
 */
export function connectRedis(url: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Errors surface through commands; without a listener ioredis would log every reconnect attempt.
  client.on("error", () => {});
  return client;
}
