import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { broadcastRecipients, broadcasts, channels, contactIdentities, contacts, messages, optIns, templates } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { claimBatch } from "@/lib/domain/broadcasts/claim";
import { BROADCAST_RUN_JOB } from "@/lib/domain/broadcasts/run-job-name";
import { projectCtx } from "@/lib/domain/automations/runs";
import { systemCtx } from "@/lib/domain/context";
import { servicesOf } from "@/lib/server/runtime";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createBroadcast, readyChannel, runUntil, write } from "./support";

/**
 * 10,000 recipients end to end against the simulator (the number at 1,000 messages a second), and a
 * run cut short after its batch was written: the queued messages are sent by the next slice, once.
 * Status callbacks are held back (long delays) so the suite measures the send path, not ingest.
 */
let h: Harness;
let seeded: Seeded;
let ready: Awaited<ReturnType<typeof readyChannel>>;
let phoneNumberId: string;

beforeAll(async () => {
  h = await startHarness({ statusDelaysMs: { sent: 600_000, delivered: 600_000, read: 600_000 } });
  seeded = await h.app.seed();
  ready = await readyChannel(h, seeded.key);
  phoneNumberId = ready.phoneNumberId;
  await h.app.db.update(channels).set({ throughputMps: 1000 }).where(eq(channels.id, ready.channel.id));
  await fetch(`${h.server.url}/api/simulator/control/numbers/throughput`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone_number_id: phoneNumberId, messages_per_second: 1000 }),
  });
});
afterAll(() => h.close());

/** Opted-in contacts written in bulk (the API would take minutes for 10,000). */
async function seedOptedIn(count: number, offset: number): Promise<string[]> {
  // A trailing 1: the simulator treats numbers ending in 0000 as undeliverable.
  const numbers = Array.from({ length: count }, (_, i) => `1777${String(offset + i).padStart(7, "0")}1`);
  const now = new Date();
  for (let start = 0; start < numbers.length; start += 1000) {
    const chunk = numbers.slice(start, start + 1000).map((to) => ({ to, id: newId("contact") }));
    await h.app.db
      .insert(contactIdentities)
      .values(chunk.map((c) => ({ id: newId("contact"), contactId: c.id, organizationId: seeded.orgId, kind: "phone", value: c.to })));
    await h.app.db.insert(contacts).values(
      chunk.map((c) => ({
        projectId: seeded.projectId,
        id: c.id,
        organizationId: seeded.orgId,
        channelId: ready.channel.id,
        platform: "PLATFORM_A",
        phone: `+${c.to}`,
      })),
    );
    await h.app.db
      .insert(optIns)
      .values(
        chunk.map((c) => ({ id: newId("optIn"), projectId: seeded.projectId, contactId: c.id, status: "active" as const, source: "test", optedInAt: now })),
      );
  }
  return numbers;
}

async function addAll(broadcastId: string, numbers: string[]) {
  for (let start = 0; start < numbers.length; start += 1000) {
    const recipients = numbers.slice(start, start + 1000).map((to) => ({ to, parameters: { "1": "there" } }));
    const res = await write(h, seeded.key, `/broadcasts/${broadcastId}/recipients`, { recipients });
    expect(res.body).toMatchObject({ added: recipients.length, duplicates: 0, errors: [] });
  }
}

describe("a broadcast to 10,000 recipients", () => {
  it("hands every recipient to the provider exactly once and completes", { timeout: 600_000 }, async () => {
    const numbers = await seedOptedIn(10_000, 0);
    const created = await createBroadcast(h, seeded.key, { name: "Ten thousand", channel_id: ready.channel.id, template: { id: ready.template.id } });
    await addAll(created.id, numbers);
    const before = h.server.simulator.state.throughputStats(phoneNumberId).accepted;
    await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    const done = await runUntil(h, seeded.key, created.id, ["COMPLETED", "PAUSED"], 400);
    expect(done.status).toBe("COMPLETED");
    expect(done.stats).toMatchObject({ total: 10_000, pending: 0, skipped: 0, failed: 0 });
    const [{ n, distinct }] = (await h.app.db
      .select({ n: sql<number>`count(*)::int`, distinct: sql<number>`count(distinct ${messages.platformMessageId})::int` })
      .from(messages)
      .where(and(eq(messages.broadcastId, created.id), isNotNull(messages.platformMessageId)))) as [{ n: number; distinct: number }];
    expect(n).toBe(10_000);
    expect(distinct).toBe(10_000);
    expect(h.server.simulator.state.throughputStats(phoneNumberId).accepted - before).toBe(10_000);
  });
});

describe("a run cut short", () => {
  it("sends the messages an earlier slice queued but never handed over, once each", async () => {
    const numbers = await seedOptedIn(30, 20_000);
    const created = await createBroadcast(h, seeded.key, { name: "Cut short", channel_id: ready.channel.id, template: { id: ready.template.id } });
    await addAll(created.id, numbers);
    // A slice wrote its batch (queued messages) and died before calling the provider.
    const [row] = await h.app.db.update(broadcasts).set({ status: "SENDING" }).where(eq(broadcasts.id, created.id)).returning();
    const ctx = (await projectCtx(systemCtx(servicesOf(h.app.runtime)), seeded.projectId))!;
    const [channel] = await h.app.db.select().from(channels).where(eq(channels.id, ready.channel.id));
    const [template] = await h.app.db.select().from(templates).where(eq(templates.id, ready.template.id));
    const { outgoing: batch } = await claimBatch(ctx, { broadcast: row!, channel: channel!, template: template! }, 20);
    expect(batch).toHaveLength(20);
    const before = h.server.simulator.state.throughputStats(phoneNumberId).accepted;
    // The job the dead slice would have left (pg-boss retries it), run now.
    await h.app.runtime.ports.queue.send(BROADCAST_RUN_JOB, { broadcastId: created.id, generation: row!.runGeneration });
    const done = await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
    expect(done.stats).toMatchObject({ total: 30, pending: 0 });
    expect(h.server.simulator.state.throughputStats(phoneNumberId).accepted - before).toBe(30);
    const sent = await h.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(eq(messages.broadcastId, created.id));
    expect(sent[0]!.n).toBe(30);
    const queuedRows = await h.app.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, created.id));
    expect(new Set(queuedRows.map((r) => r.messageId)).size).toBe(30);
  });
});
