import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { Redis } from "ioredis";
import { BusPayloadTooLarge, BUS_PAYLOAD_LIMIT_BYTES, createBus, type BusPort } from "@/lib/ports/bus";
import { memoryBus } from "@/lib/ports/bus/memory";
import { connectRedis } from "@/lib/ports/limiter/redis";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";

/**
 * The bus port with each adapter: the in-process emitter (PGlite), Postgres LISTEN/NOTIFY against the
 * real server when the suite runs on Postgres (DATABASE_URL), Redis pub/sub when REDIS_URL is set. Two
 * bus instances on one Postgres database or one Redis stand for two processes: each sees the other's
 * publishes. No timing: every wait is for a message that must come (the test's timeout bounds it).
 */
const template = inject("dbTemplate");
const redisUrl = process.env.REDIS_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A handler that records what it got, and a promise for its n-th message. */
function recorder() {
  const got: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    got,
    handler: (payload: string) => {
      got.push(payload);
      for (const w of waiters.filter((w) => got.length >= w.n)) w.resolve();
    },
    received: (n: number) => new Promise<void>((resolve) => (got.length >= n ? resolve() : waiters.push({ n, resolve }))),
  };
}

async function postgresPair(): Promise<[BusPort, BusPort]> {
  if (template.kind !== "postgres") throw new Error("not on Postgres");
  const handles: DatabaseHandle[] = [];
  for (let i = 0; i < 2; i++) handles.push(await openDatabase({ databaseUrl: template.adminUrl, migrate: false, max: 2 }));
  const buses = handles.map((database) => createBus({ database }));
  cleanups.push(async () => {
    for (const bus of buses) await bus.close();
    for (const handle of handles) await handle.close();
  });
  return [buses[0]!, buses[1]!];
}

async function redisPair(): Promise<[BusPort, BusPort]> {
  const prefix = `svc-test-${randomUUID()}`;
  const clients: Redis[] = [connectRedis(redisUrl!), connectRedis(redisUrl!)];
  await Promise.all(clients.map((client) => new Promise<void>((resolve) => (client.status === "ready" ? resolve() : client.once("ready", () => resolve())))));
  // The database is never used by the Redis adapter; PGlite's handle kind would pick the emitter without Redis.
  const database = { kind: "pglite" } as DatabaseHandle;
  const buses = clients.map((redis) => createBus({ database, redis, redisUrl: redisUrl!, keyPrefix: prefix }));
  cleanups.push(async () => {
    for (const bus of buses) await bus.close();
    for (const client of clients) client.disconnect();
  });
  return [buses[0]!, buses[1]!];
}

type Maker = () => Promise<[BusPort, BusPort]>;
const adapters: [string, string, Maker, () => string | null][] = [
  ["memory", "memory", async () => [memoryBus(), memoryBus()], () => null],
  ["postgres", "postgres", postgresPair, () => (template.kind === "postgres" ? null : "needs the suite on Postgres (DATABASE_URL)")],
  ["redis", "redis", redisPair, () => (redisUrl ? null : "needs REDIS_URL")],
];

describe.each(adapters)("bus port: %s", (_name, backend, make, unavailable) => {
  it("delivers a publish to every handler of the channel, and only of that channel", async ({ skip }) => {
    const reason = unavailable();
    if (reason) skip(reason);
    const [bus] = await make();
    expect(bus.backend).toBe(backend);
    const channel = `t.${randomUUID()}`;
    const a = recorder();
    const b = recorder();
    const other = recorder();
    await bus.subscribe(channel, a.handler);
    await bus.subscribe(channel, b.handler);
    await bus.subscribe(`${channel}.other`, other.handler);
    await bus.publish(channel, "one");
    await bus.publish(channel, "two");
    await Promise.all([a.received(2), b.received(2)]);
    expect(a.got).toEqual(["one", "two"]);
    expect(b.got).toEqual(["one", "two"]);
    await bus.publish(`${channel}.other`, "three");
    await other.received(1);
    expect(other.got).toEqual(["three"]);
    expect(a.got).toEqual(["one", "two"]);
  });

  it("stops one handler on unsubscribe while the channel's others keep receiving", async ({ skip }) => {
    const reason = unavailable();
    if (reason) skip(reason);
    const [bus] = await make();
    const channel = `t.${randomUUID()}`;
    const gone = recorder();
    const stays = recorder();
    const stop = await bus.subscribe(channel, gone.handler);
    await bus.subscribe(channel, stays.handler);
    await bus.publish(channel, "before");
    await Promise.all([gone.received(1), stays.received(1)]);
    stop();
    stop();
    await bus.publish(channel, "after");
    await stays.received(2);
    expect(gone.got).toEqual(["before"]);
    expect(stays.got).toEqual(["before", "after"]);
  });

  it("listens again after the last handler left and a new one comes", async ({ skip }) => {
    const reason = unavailable();
    if (reason) skip(reason);
    const [bus] = await make();
    const channel = `t.${randomUUID()}`;
    const first = recorder();
    (await bus.subscribe(channel, first.handler))();
    const second = recorder();
    await bus.subscribe(channel, second.handler);
    await bus.publish(channel, "again");
    await second.received(1);
    expect(second.got).toEqual(["again"]);
    expect(first.got).toEqual([]);
  });

  it("refuses a payload over NOTIFY's limit on every backend", async ({ skip }) => {
    const reason = unavailable();
    if (reason) skip(reason);
    const [bus] = await make();
    await expect(bus.publish(`t.${randomUUID()}`, "x".repeat(BUS_PAYLOAD_LIMIT_BYTES + 1))).rejects.toSatisfy((error) => BusPayloadTooLarge.is(error));
    await expect(bus.publish(`t.${randomUUID()}`, "x".repeat(BUS_PAYLOAD_LIMIT_BYTES))).resolves.toBeUndefined();
  });

  it("refuses subscriptions once closed", async ({ skip }) => {
    const reason = unavailable();
    if (reason) skip(reason);
    const [bus] = await make();
    await bus.subscribe(`t.${randomUUID()}`, () => {});
    await bus.close();
    await expect(bus.subscribe(`t.${randomUUID()}`, () => {})).rejects.toThrow(/closed/);
  });
});

describe.each(adapters.filter(([name]) => name !== "memory"))("bus port across processes: %s", (_name, _backend, make, unavailable) => {
  it("two buses on the same backend see each other's publishes, their own included", async ({ skip }) => {
    const reason = unavailable();
    if (reason) skip(reason);
    const [one, two] = await make();
    const channel = `t.${randomUUID()}`;
    const onOne = recorder();
    const onTwo = recorder();
    await one.subscribe(channel, onOne.handler);
    await two.subscribe(channel, onTwo.handler);
    await one.publish(channel, "from one");
    await Promise.all([onOne.received(1), onTwo.received(1)]);
    await two.publish(channel, "from two");
    await Promise.all([onOne.received(2), onTwo.received(2)]);
    expect(onOne.got).toEqual(["from one", "from two"]);
    expect(onTwo.got).toEqual(["from one", "from two"]);
  });

  it("a burst of publishes from one turn arrives whole and in order", async ({ skip }) => {
    const reason = unavailable();
    if (reason) skip(reason);
    const [one, two] = await make();
    const channels = [`t.${randomUUID()}`, `t.${randomUUID()}`];
    const heard = [recorder(), recorder()];
    await two.subscribe(channels[0]!, heard[0]!.handler);
    await two.subscribe(channels[1]!, heard[1]!.handler);
    const sent = Array.from({ length: 50 }, (_, i) => `m${i}`);
    await Promise.all(sent.map((payload, i) => one.publish(channels[i % 2]!, payload)));
    await Promise.all([heard[0]!.received(25), heard[1]!.received(25)]);
    expect(heard[0]!.got).toEqual(sent.filter((_, i) => i % 2 === 0));
    expect(heard[1]!.got).toEqual(sent.filter((_, i) => i % 2 === 1));
  });
});

describe("bus port: in-process emitter", () => {
  it("keeps two in-process buses apart (each runtime its own; PGlite serves one process)", async () => {
    const one = memoryBus();
    const two = memoryBus();
    const channel = `t.${randomUUID()}`;
    const onOne = recorder();
    const onTwo = recorder();
    await one.subscribe(channel, onOne.handler);
    await two.subscribe(channel, onTwo.handler);
    await two.publish(channel, "two's");
    await one.publish(channel, "one's");
    await Promise.all([onOne.received(1), onTwo.received(1)]);
    expect(onOne.got).toEqual(["one's"]);
    expect(onTwo.got).toEqual(["two's"]);
  });
});
