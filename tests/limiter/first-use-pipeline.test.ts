import { afterAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { createLimiter } from "@/lib/ports/limiter";
import { connectRedis } from "@/lib/ports/limiter/redis";

/**
 * The limiter makes a Redis limiter per window size on first use, and each defines its script command
 * on the shared client. ioredis pipelines the commands of one tick together; a pipeline opened before
 * the command was defined lacked it, so the first hit of a new size beside any other command was
 * refused, and ioredis then threw outside any promise and ended the process (redis/ioredis#1931: a
 * worker died this way in the 2026-12-01 bench). connectRedis defines the command before any command.
 */
const redisUrl = process.env.REDIS_URL;
const clients: Redis[] = [];
afterAll(() => {
  for (const client of clients) client.disconnect();
});

async function readyClient(url: string): Promise<Redis> {
  const client = connectRedis(url);
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once("ready", () => resolve());
    client.once("end", () => reject(new Error("redis closed")));
  });
  return client;
}

describe("a Redis limiter's first hit beside another command in the same tick", () => {
  it("counts, and leaves the client working", async ({ skip }) => {
    if (!redisUrl) return skip("needs REDIS_URL");
    const redis = await readyClient(redisUrl);
    const limiter = createLimiter({ db: null as never, redis });
    const key = `first-use:${randomUUID()}`;
    // Any command opens this tick's pipeline first; the hit's limiter (a size not used before) is made after it.
    const other = redis.get(`${key}:other`);
    const hits = await Promise.all([limiter.hit("strict", key, 2, 7), limiter.hit("request", key, 3, 11)]);
    expect(await other).toBeNull();
    expect(hits.map((hit) => [hit.allowed, hit.remaining])).toEqual([
      [true, 1],
      [true, 2],
    ]);
    // The pipeline's replies were all handed out: the client still answers.
    expect(await redis.ping()).toBe("PONG");
    expect((await limiter.hit("strict", key, 2, 7)).remaining).toBe(0);
  });
});
