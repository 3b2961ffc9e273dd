/**
 * POST /messages when the pair limiter's backend (Redis) is unreachable: 503
 * message_rate_limit_unavailable at once, never an unpaced send, and nothing written or queued.
 *
 * Two runtimes, one after the other (the messages route reads the installed runtime):
 * 1. The pair ("strict") buckets on a closed Redis port, every other bucket healthy: the send path.
 * 2. The whole runtime on the closed port (createTestApp({redisUrl})), as production would run with
 *    Redis down: request windows fall back to memory and the monthly quota to the database, so the
 *    request reaches the send path, which refuses with 503.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Redis } from "ioredis";
import { conversations, messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { createLimiter, type Limiter } from "@/lib/ports/limiter";
import { connectRedis } from "@/lib/ports/limiter/redis";
import type { Seeded } from "../support/app";
import { expectError } from "../support/wire";
import type { Harness } from "./support";
import { joinCodeOf, joinTesters, outboundRows, send, settleUntil, startSendHarness, testerNumber } from "./send-support";

const CLOSED_PORT = "redis://127.0.0.1:1";

/** The runtime's limiter, except pair pacing, which goes to `dead`. */
function withDeadPairLimiter(healthy: Limiter, dead: Limiter): Limiter {
  const pick = (kind: string) => (kind === "strict" ? dead : healthy);
  return {
    backend: healthy.backend,
    hit: (kind, key, limit, windowSeconds) => pick(kind).hit(kind, key, limit, windowSeconds),
    hitMany: (kind, keys, limit, windowSeconds) => pick(kind).hitMany(kind, keys, limit, windowSeconds),
    refund: (kind, key, limit, windowSeconds) => pick(kind).refund(kind, key, limit, windowSeconds),
    close: async () => {
      await dead.close();
      await healthy.close();
    },
  };
}

describe("pair limiter unreachable (request and quota buckets healthy)", () => {
  let h: Harness;
  let acme: Seeded;
  let conversationId: string;
  let deadRedis: Redis;
  const T = testerNumber();

  beforeAll(async () => {
    h = await startSendHarness();
    acme = await h.app.seed();
    conversationId = (await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), [T])).conversations[T]!;
    await h.settle(20);
    deadRedis = connectRedis(CLOSED_PORT);
    // Verbs take their limiter from ctx.ports (the runtime's request wrapper keeps the healthy one).
    h.app.runtime.ports.limiter = withDeadPairLimiter(h.app.runtime.ports.limiter, createLimiter({ db: h.app.db, redis: deadRedis }));
  });
  afterAll(async () => {
    deadRedis?.disconnect();
    await h?.close();
  });

  it("503 message_rate_limit_unavailable {queued: false, retryable: true, retry_after: 1} with Retry-After: 1, promptly", async () => {
    const started = Date.now();
    const res = await send(
      h,
      acme.key,
      { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Never unpaced" },
      { "Idempotency-Key": "limiter-down-1" },
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expectError(res, 503, "message_rate_limit_unavailable");
    expect(res.body).toMatchObject({ queued: false, retryable: true, retry_after: 1 });
    expect(res.headers.get("retry-after")).toBe("1");
  });

  it("writes no message row and queues no provider job; the same key answers 503 again, not a replay", async () => {
    expect(await outboundRows(h, acme.projectId)).toHaveLength(0);
    expect(await h.app.runtime.ports.queue.drain()).toBe(0);
    expect(h.server.simulator.state.inbox(SANDBOX_PHONE_NUMBER_ID, T)).toHaveLength(0);
    const again = await send(
      h,
      acme.key,
      { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Never unpaced" },
      { "Idempotency-Key": "limiter-down-1" },
    );
    expectError(again, 503, "message_rate_limit_unavailable");
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("whole runtime on a closed Redis port: createTestApp({redisUrl: 'redis://127.0.0.1:1'})", () => {
  let h: Harness;
  let acme: Seeded;
  let conversationId: string;
  const T = testerNumber();

  beforeAll(async () => {
    h = await startSendHarness({ redisUrl: CLOSED_PORT });
    acme = await h.app.seed();
    // Joining goes through the provider webhook (no limiter); the conversation is read from the database
    // because every keyed API call fails on this runtime (see the file comment).
    await h.customer({ from: T, type: "text", text: `join ${await joinCodeOf(h, acme.projectId)}` });
    await settleUntil(h, async () => (await h.app.db.select().from(conversations).where(eq(conversations.projectId, acme.projectId))).length === 1);
    conversationId = (await h.app.db.select().from(conversations).where(eq(conversations.projectId, acme.projectId)))[0]!.id;
  });
  afterAll(() => h?.close());

  it("POST /messages answers 503 message_rate_limit_unavailable promptly and writes nothing", async () => {
    const started = Date.now();
    const res = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Never unpaced" });
    expect(Date.now() - started).toBeLessThan(3000);
    const written = await h.app.db
      .select()
      .from(messages)
      .where(and(eq(messages.projectId, acme.projectId), eq(messages.direction, "outbound")));
    expect(written).toHaveLength(0);
    expect(await h.app.runtime.ports.queue.drain()).toBe(0);
    expectError(res, 503, "message_rate_limit_unavailable");
    expect(res.body).toMatchObject({ queued: false, retryable: true, retry_after: 1 });
    expect(res.headers.get("retry-after")).toBe("1");
  });
});
