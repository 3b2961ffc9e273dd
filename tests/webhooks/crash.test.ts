import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { PgBoss, fromPglite } from "pg-boss";
import { emitEvent } from "@/lib/domain/events";
import { WEBHOOK_DELIVER_JOB } from "@/lib/domain/webhooks/enqueue";
import { createJobQueue } from "@/lib/ports/queue";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";

let app: TestApp;
let receiver: Receiver;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  receiver = await startReceiver();
  acme = await app.seed();
  await app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/hooks` } });
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});

/** A second worker on the same database: what another process (or a crashed one) would be. */
function otherWorker(): PgBoss {
  if (app.kind === "pglite") {
    const client = (app.db as unknown as { $client: Parameters<typeof fromPglite>[0] }).$client;
    return new PgBoss({ db: fromPglite(client), backend: "pglite", supervise: false, schedule: false });
  }
  return new PgBoss({ connectionString: app.databaseUrl!, supervise: false, schedule: false, max: 2 });
}

describe("a worker killed mid-delivery", () => {
  it("leaves the job to expire; the maintenance pass puts it back and the event is delivered", async () => {
    const eventId = await app.db.transaction((tx) =>
      emitEvent(
        { ...app.systemCtx(), db: tx },
        { project: { id: acme.projectId }, type: "message.status", payload: { message_id: "msg_crash", status: "sent" }, at: app.clock.now() },
      ),
    );
    expect(eventId).toBeTruthy();

    // The doomed worker claims the job, then "dies": it never completes or fails it.
    const doomed = otherWorker();
    doomed.on("error", () => {});
    await doomed.start();
    const [claimed] = await doomed.fetch(WEBHOOK_DELIVER_JOB, { batchSize: 1 });
    expect(claimed).toBeDefined();
    expect(await app.runtime.ports.queue.drain()).toBe(0);
    expect(receiver.received).toHaveLength(0);

    // Time passes beyond the 30 s lease (aged in the database rather than slept through).
    await app.db.execute(sql`update pgboss.job set started_on = now() - interval '10 minutes' where id = ${claimed!.id}`);
    await app.runtime.ports.queue.maintain();
    // Put back with the queue's 1 s retry delay: bounded wait for it to come due.
    for (let i = 0; i < 40 && receiver.received.length === 0; i++) {
      await app.runtime.ports.queue.drain();
      await new Promise((r) => setTimeout(r, 100));
    }
    await receiver.waitFor(1);
    const sent = JSON.parse(receiver.received[0]!.raw);
    expect(sent.payload).toMatchObject({ message_id: "msg_crash" });
    expect(receiver.received[0]!.headers["x-svc-delivery"]).toBe(eventId);
    const deliveries = (await app.call("GET", "/webhook-deliveries", { key: acme.key })).body.data;
    expect(deliveries.find((d: { event_id: string }) => d.event_id === eventId)).toMatchObject({ status: "succeeded", attempt_count: 1 });
    await doomed.stop({ graceful: false, close: app.kind !== "pglite" } as Parameters<PgBoss["stop"]>[0]);
  });
});

describe("many workers on one Postgres", () => {
  it("never run a job twice", async ({ skip }) => {
    if (app.kind !== "postgres") skip("PGlite allows one process per database");
    const handle = { db: app.db, kind: "postgres", close: async () => {} } as DatabaseHandle;
    const runs: number[] = [];
    const make = async () => {
      const queue = await createJobQueue(handle);
      queue.define<{ n: number }>("test.once", {}, async (data) => {
        runs.push(data.n);
        await new Promise((r) => setTimeout(r, 2));
      });
      await queue.prepare();
      return queue;
    };
    const [a, b] = [await make(), await make()];
    for (let n = 0; n < 40; n++) await a.send("test.once", { n });
    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    expect(runs.slice().sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    await a.stop();
    await b.stop();
  });
});
