import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { broadcasts, channels, templates } from "@/lib/db/schema";
import { markDispatched } from "@/lib/domain/broadcasts/attempts";
import { claimBatch } from "@/lib/domain/broadcasts/claim";
import { broadcastRunJob } from "@/lib/domain/broadcasts/jobs";
import { LEASE_MS, releaseLease, renewLease, takeLease } from "@/lib/domain/broadcasts/lease";
import { BROADCAST_RUN_JOB } from "@/lib/domain/broadcasts/run-job-name";
import { takeOverStalledRuns } from "@/lib/domain/broadcasts/watchdog";
import { projectCtx } from "@/lib/domain/automations/runs";
import { runJob } from "@/lib/jobs/define";
import { servicesOf } from "@/lib/server/runtime";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { rowsOf } from "../contacts/erase-support";
import { createBroadcast, optedIn, readyChannel, recipientsOf, runUntil, write } from "./support";

/**
 * A worker killed in the middle of a broadcast: the run's lease (lib/domain/broadcasts/lease.ts) runs
 * out, the watchdog hands the run to a new slice at once (not when pg-boss expires the dead job), and
 * that slice settles what the dead one handed to the provider without an answer as outcome_unknown,
 * sends the rest, and never sends anyone twice. The clock is moved, so this file has its own app.
 */
let h: Harness;
let seeded: Seeded;
let ready: Awaited<ReturnType<typeof readyChannel>>;

beforeAll(async () => {
  h = await startHarness({ statusDelaysMs: { sent: 10, delivered: 20, read: 30 } });
  seeded = await h.app.seed();
  ready = await readyChannel(h, seeded.key);
});
afterAll(() => h.close());

const sentTo = (to: string) => h.server.simulator.state.inbox(ready.phoneNumberId, to);
const services = () => servicesOf(h.app.runtime);

async function runOf(id: string) {
  const [row] = await h.app.db.select().from(broadcasts).where(eq(broadcasts.id, id));
  return { broadcastId: id, generation: row!.runGeneration };
}

/** The run's jobs in the queue, as pg-boss holds them. */
async function jobsOf(id: string) {
  const result = await h.app.db.execute(
    sql`select id, state, (data->>'generation')::int as generation from pgboss.job where name = ${BROADCAST_RUN_JOB} and data->>'broadcastId' = ${id} order by created_on`,
  );
  return rowsOf<{ id: string; state: string; generation: number }>(result);
}

describe("a broadcast whose worker was killed mid-run", () => {
  it("is taken over once its lease runs out: the unanswered send ends outcome_unknown, the rest are sent once", async () => {
    const numbers = await optedIn(h, seeded.key, 4, ready.channel.id);
    const created = await createBroadcast(h, seeded.key, {
      name: "Killed mid-run",
      channel_id: ready.channel.id,
      template: { id: ready.template.id },
      recipients: numbers.map((to) => ({ to, parameters: { "1": "x" } })),
    });
    expect((await write(h, seeded.key, `/broadcasts/${created.id}/send`)).body.status).toBe("SENDING");
    const dead = await runOf(created.id);
    // The dead worker's slice: it took the lease, claimed two recipients, handed the first to the
    // provider and died before the answer. pg-boss still holds its job as active.
    const [job] = await jobsOf(created.id);
    await h.app.db.execute(sql`update pgboss.job set state = 'active', started_on = now() where id = ${job!.id}::uuid`);
    expect(await takeLease(h.app.db, dead, "dead-worker", h.app.clock.now())).toBe(true);
    const ctx = (await projectCtx(h.app.systemCtx(), seeded.projectId))!;
    const [broadcast] = await h.app.db.select().from(broadcasts).where(eq(broadcasts.id, created.id));
    const [channel] = await h.app.db.select().from(channels).where(eq(channels.id, ready.channel.id));
    const [template] = await h.app.db.select().from(templates).where(eq(templates.id, ready.template.id));
    const { outgoing } = await claimBatch(ctx, { broadcast: broadcast!, channel: channel!, template: template! }, 2);
    expect(await markDispatched(h.app.db, outgoing.slice(0, 1), h.app.clock.now())).toHaveLength(1);
    const [handedOver, claimedOnly] = outgoing as [(typeof outgoing)[0], (typeof outgoing)[0]];

    // While the lease is live nothing takes the run: not the watchdog, not another job of the run.
    expect(await takeOverStalledRuns(h.app.systemCtx())).toEqual([]);
    await runJob(broadcastRunJob, services(), dead, { id: "another-worker", retryCount: 0, retryLimit: 10 });
    expect(numbers.flatMap(sentTo)).toEqual([]);

    // The dead worker renews nothing: a lease later the watchdog moves the run to a new generation.
    h.app.clock.advance(LEASE_MS + 1_000);
    const taken = await takeOverStalledRuns(h.app.systemCtx());
    expect(taken).toEqual([{ broadcastId: created.id, generation: dead.generation + 1 }]);
    expect((await jobsOf(created.id)).map((j) => [j.state, j.generation])).toEqual([
      ["active", dead.generation],
      ["created", dead.generation + 1],
    ]);
    // A second look finds it in hand (its new lease is fresh).
    expect(await takeOverStalledRuns(h.app.systemCtx())).toEqual([]);
    expect(await renewLease(h.app.db, dead, "dead-worker", h.app.clock.now())).toBe(false);

    const done = await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
    expect(done.stats).toMatchObject({ total: 4, failed: 1, outcome_unknown: 1, pending: 0, queued: 0 });
    const rows = await recipientsOf(h, created.id);
    expect(rows.find((r) => r.id === handedOver.recipientId)).toMatchObject({ status: "failed", error: expect.objectContaining({ code: "outcome_unknown" }) });
    expect(sentTo(handedOver.to)).toEqual([]);
    // The claimed one never reached a send: it goes out, with the message the dead slice wrote.
    expect(rows.find((r) => r.id === claimedOnly.recipientId)).toMatchObject({ messageId: claimedOnly.messageId });
    for (const to of numbers.filter((n) => n !== handedOver.to)) expect(sentTo(to)).toHaveLength(1);

    // pg-boss expires the dead job and runs it again: its run is over, it sends nothing.
    await runJob(broadcastRunJob, services(), dead, { id: "expired-retry", retryCount: 1, retryLimit: 10 });
    await h.settle(20);
    for (const to of numbers.filter((n) => n !== handedOver.to)) expect(sentTo(to)).toHaveLength(1);
  });

  it("is one slice's at a time: renewing keeps it past a lease's time, giving it back lets the next one take it at once", async () => {
    const numbers = await optedIn(h, seeded.key, 1, ready.channel.id);
    const created = await createBroadcast(h, seeded.key, {
      name: "One slice at a time",
      channel_id: ready.channel.id,
      template: { id: ready.template.id },
      recipients: numbers.map((to) => ({ to, parameters: { "1": "x" } })),
    });
    await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    const run = await runOf(created.id);
    expect(await takeLease(h.app.db, run, "slice-a", h.app.clock.now())).toBe(true);
    expect(await takeLease(h.app.db, run, "slice-b", h.app.clock.now())).toBe(false);
    h.app.clock.advance(LEASE_MS - 1_000);
    expect(await renewLease(h.app.db, run, "slice-a", h.app.clock.now())).toBe(true);
    h.app.clock.advance(LEASE_MS - 1_000);
    expect(await takeOverStalledRuns(h.app.systemCtx())).toEqual([]);
    expect(await takeLease(h.app.db, run, "slice-b", h.app.clock.now())).toBe(false);
    // Given back (a slice handing the run to its continuation): the next slice takes it without waiting.
    await releaseLease(h.app.db, run, "slice-a", h.app.clock.now());
    expect(await takeLease(h.app.db, run, "slice-b", h.app.clock.now())).toBe(true);
    await releaseLease(h.app.db, run, "slice-b", h.app.clock.now());
    // The job the send queued takes it the same way and sends.
    expect((await runUntil(h, seeded.key, created.id, ["COMPLETED"])).stats).toMatchObject({ total: 1, outcome_unknown: 0 });
    expect(sentTo(numbers[0]!)).toHaveLength(1);
    const [row] = await h.app.db.select().from(broadcasts).where(eq(broadcasts.id, created.id));
    expect(row!.senderLeaseHolder).toBeNull();
  });
});
