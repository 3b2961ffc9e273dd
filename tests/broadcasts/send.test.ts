import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { broadcasts, channels, messages, projects } from "@/lib/db/schema";
import { broadcastRunJob } from "@/lib/domain/broadcasts/jobs";
import { markReplied } from "@/lib/domain/broadcasts/progress";
import { runJob } from "@/lib/jobs/define";
import { servicesOf } from "@/lib/server/runtime";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { forceReview } from "../templates/support";
import { PAIR_INTERVAL_SECONDS, pairKey } from "@/lib/domain/messages/pacing";
import { createBroadcast, customerNumber, optedIn, readyChannel, recipientsOf, runUntil, write } from "./support";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * Sending a broadcast through the simulator: opt-in skips, per-recipient parameters, status
 * callbacks and replies moving recipients and stats, throughput refusals (130429) retried,
 * auto-pause when the template is paused and resume with send.
 */
let h: Harness;
let seeded: Seeded;
let ready: Awaited<ReturnType<typeof readyChannel>>;
let phoneNumberId: string;

beforeAll(async () => {
  h = await startHarness({ statusDelaysMs: { sent: 10, delivered: 20, read: 30 } });
  seeded = await h.app.seed();
  ready = await readyChannel(h, seeded.key);
  phoneNumberId = ready.phoneNumberId;
});
afterAll(() => h.close());

const sentTo = (to: string) => h.server.simulator.state.inbox(phoneNumberId, to);

describe("sending a broadcast", () => {
  it("sends each opted-in recipient its own parameters, skips the rest, and counts statuses and replies", async () => {
    const opted = await optedIn(h, seeded.key, 3, ready.channel.id);
    const stranger = customerNumber();
    const created = await createBroadcast(h, seeded.key, {
      name: "Launch",
      channel_id: ready.channel.id,
      template: { name: "spring_sale", language: "en_US" },
      recipients: [...opted.map((to, i) => ({ to, parameters: { "1": `Friend ${i}` } })), { to: stranger, parameters: { "1": "Stranger" } }],
    });
    const sent = await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    expect(sent.body.status).toBe("SENDING");
    expect(sent.body.started_at).not.toBeNull();
    await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
    await h.settle(60);
    for (const [i, to] of opted.entries()) {
      const got = sentTo(to);
      expect(got).toHaveLength(1);
      expect(JSON.stringify(got[0]!.body)).toContain(`Friend ${i}`);
    }
    expect(sentTo(stranger)).toHaveLength(0);
    const rows = await recipientsOf(h, created.id);
    expect(rows.find((r) => r.to === stranger)).toMatchObject({ status: "skipped", skipReason: "no_opt_in", messageId: null });
    // A reply from one customer after the broadcast counts for it.
    await h.customer({ sender_id: phoneNumberId, from: opted[0], type: "text", text: "Count me in!" });
    await h.settle(30);
    const done = await h.app.call("GET", `/broadcasts/${created.id}`, { key: seeded.key });
    expect(done.body).toMatchObject({ status: "COMPLETED", stats: { total: 4, skipped: 1, read: 3, pending: 0, queued: 0, replied: 1 } });
    expect(done.body.completed_at).not.toBeNull();
    const read = await h.app.call("GET", `/broadcasts/${created.id}/recipients?status=read`, { key: seeded.key });
    expect(read.body.data).toHaveLength(3);
    expect(read.body.data[0].message_id).toMatch(/^msg_/);
  });

  it("counts a reply stamped in the same second as the broadcast message (providers stamp whole seconds)", async () => {
    const [to] = await optedIn(h, seeded.key, 1, ready.channel.id);
    const created = await createBroadcast(h, seeded.key, {
      name: "Same second",
      channel_id: ready.channel.id,
      template: { name: "spring_sale", language: "en_US" },
      recipients: [{ to: to!, parameters: { "1": "Quick" } }],
    });
    await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
    await h.settle(60);
    const [recipient] = await recipientsOf(h, created.id);
    const second = Math.floor(Date.now() / 1000) * 1000;
    await h.app.db
      .update(messages)
      .set({ timestamp: new Date(second + 700) })
      .where(eq(messages.id, recipient!.messageId!));
    await markReplied(h.app.db, { projectId: seeded.projectId, contactId: recipient!.contactId!, channelId: ready.channel.id }, new Date(second));
    const [after] = await recipientsOf(h, created.id);
    expect(after!.repliedAt).toEqual(new Date(second));
  });

  it("sends to everyone when the project does not require an opt-in (contacts are created)", async () => {
    await h.app.db.update(projects).set({ requireOptIn: false }).where(eq(projects.id, seeded.projectId));
    forgetAuthenticatedKeys();
    try {
      const to = customerNumber();
      const created = await createBroadcast(h, seeded.key, {
        name: "No opt-in",
        channel_id: ready.channel.id,
        template: { id: ready.template.id },
        recipients: [{ to, parameters: { "1": "New" } }],
      });
      await write(h, seeded.key, `/broadcasts/${created.id}/send`);
      await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
      expect(sentTo(to)).toHaveLength(1);
      const [row] = await recipientsOf(h, created.id);
      expect(row!.contactId).toMatch(/^ct_/);
    } finally {
      await h.app.db.update(projects).set({ requireOptIn: true }).where(eq(projects.id, seeded.projectId));
      forgetAuthenticatedKeys();
    }
  });

  it("finds a number that became an opted-in contact after it was added, and skips a recipient erased before the send", async () => {
    await h.app.db.update(projects).set({ requireOptIn: false }).where(eq(projects.id, seeded.projectId));
    forgetAuthenticatedKeys();
    try {
      const later = customerNumber();
      const erased = (await optedIn(h, seeded.key, 1, ready.channel.id))[0]!;
      const created = await createBroadcast(h, seeded.key, {
        name: "Contacts change",
        channel_id: ready.channel.id,
        template: { id: ready.template.id },
        recipients: [
          { to: later, parameters: { "1": "Later" } },
          { to: erased, parameters: { "1": "Gone" } },
        ],
      });
      const before = await recipientsOf(h, created.id);
      expect(before.find((r) => r.to === later)!.contactId).toBeNull();
      const erasedContact = before.find((r) => r.to === erased)!.contactId!;
      // After the recipients were added: the first number becomes a contact, the second contact is erased.
      const contact = await h.app.call("POST", "/contacts", { key: seeded.key, body: { phone: `+${later}`, channel_id: ready.channel.id, opt_in: true } });
      expect(contact.status).toBe(200);
      expect((await h.app.call("DELETE", `/contacts/${erasedContact}`, { key: seeded.key })).status).toBe(200);

      await write(h, seeded.key, `/broadcasts/${created.id}/send`);
      await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
      const rows = await recipientsOf(h, created.id);
      expect(rows.find((r) => r.to === later)).toMatchObject({ contactId: contact.body.id });
      expect(sentTo(later)).toHaveLength(1);
      const gone = rows.find((r) => r.to.startsWith("erased:"))!;
      expect(gone).toMatchObject({ status: "skipped", skipReason: "erased", contactId: null, messageId: null });
      expect(sentTo(erased)).toHaveLength(0);
      expect(h.server.simulator.state.inbox(phoneNumberId, gone.to)).toHaveLength(0);
    } finally {
      await h.app.db.update(projects).set({ requireOptIn: true }).where(eq(projects.id, seeded.projectId));
      forgetAuthenticatedKeys();
    }
  });

  it("goes on past a whole batch of recipients without opt-in to the opted-in ones after them", async () => {
    // The channel's 80/s makes batches of 20: the first two batches are all strangers.
    const strangers = Array.from({ length: 45 }, () => customerNumber());
    const opted = await optedIn(h, seeded.key, 2, ready.channel.id);
    const created = await createBroadcast(h, seeded.key, {
      name: "Strangers first",
      channel_id: ready.channel.id,
      template: { id: ready.template.id },
      recipients: [...strangers, ...opted].map((to) => ({ to, parameters: { "1": "x" } })),
    });
    await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    const done = await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
    expect(done.stats).toMatchObject({ total: 47, skipped: 45, pending: 0 });
    for (const to of opted) expect(sentTo(to)).toHaveLength(1);
  });

  it("holds a recipient messaged less than 6 s before until its pair slot frees, then sends it once (never a 429)", async () => {
    const [busy, free] = await optedIn(h, seeded.key, 2, ready.channel.id);
    const created = await createBroadcast(h, seeded.key, {
      name: "Pair pacing",
      channel_id: ready.channel.id,
      template: { id: ready.template.id },
      recipients: [busy!, free!].map((to) => ({ to, parameters: { "1": "x" } })),
    });
    // As a POST /messages to that customer would have done a moment ago.
    const taken = await h.app.runtime.ports.limiter.hit("strict", pairKey("PLATFORM_A", ready.channel.id, busy!), 1, PAIR_INTERVAL_SECONDS);
    expect(taken.allowed).toBe(true);
    const started = Date.now();
    await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    await runUntil(h, seeded.key, created.id, ["COMPLETED"], 80);
    expect(sentTo(free!)).toHaveLength(1);
    const held = sentTo(busy!);
    expect(held).toHaveLength(1);
    expect(new Date(held[0]!.sent_at).getTime() - started).toBeGreaterThanOrEqual((PAIR_INTERVAL_SECONDS - 1) * 1000);
    expect(new Date(held[0]!.sent_at).getTime()).toBeGreaterThan(new Date(sentTo(free!)[0]!.sent_at).getTime());
    expect((await recipientsOf(h, created.id)).map((r) => r.status).filter((s) => s === "failed")).toEqual([]);
  }, 30_000);

  it("retries throughput refusals (130429) until every recipient is accepted, each once", async () => {
    const control = await fetch(`${h.server.url}/api/simulator/control/numbers/throughput`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone_number_id: phoneNumberId, messages_per_second: 5 }),
    });
    expect(control.ok).toBe(true);
    // The channel believes it may send 50 a second: the provider refuses the excess.
    await h.app.db.update(channels).set({ throughputMps: 50 }).where(eq(channels.id, ready.channel.id));
    try {
      const opted = await optedIn(h, seeded.key, 12, ready.channel.id);
      const created = await createBroadcast(h, seeded.key, {
        name: "Throttled",
        channel_id: ready.channel.id,
        template: { id: ready.template.id },
        recipients: opted.map((to) => ({ to, parameters: { "1": "x" } })),
      });
      await write(h, seeded.key, `/broadcasts/${created.id}/send`);
      await runUntil(h, seeded.key, created.id, ["COMPLETED"], 80);
      for (const to of opted) expect(sentTo(to)).toHaveLength(1);
      expect(h.server.simulator.state.throughputStats(phoneNumberId).refused).toBeGreaterThan(0);
    } finally {
      await h.app.db.update(channels).set({ throughputMps: null }).where(eq(channels.id, ready.channel.id));
      await fetch(`${h.server.url}/api/simulator/control/numbers/throughput`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone_number_id: phoneNumberId, messages_per_second: 80 }),
      });
    }
  });

  it("pauses with sender_failed when its sender fails on every retry, and resumes to send each recipient once", async () => {
    const opted = await optedIn(h, seeded.key, 2, ready.channel.id);
    const created = await createBroadcast(h, seeded.key, {
      name: "Sender fails",
      channel_id: ready.channel.id,
      template: { id: ready.template.id },
      recipients: opted.map((to) => ({ to, parameters: { "1": "x" } })),
    });
    expect((await write(h, seeded.key, `/broadcasts/${created.id}/send`)).body.status).toBe("SENDING");
    const [row] = await h.app.db.select().from(broadcasts).where(eq(broadcasts.id, created.id));
    const payload = { broadcastId: created.id, generation: row!.runGeneration };
    const services = servicesOf(h.app.runtime);
    // Before any send (a send that throws may have reached the provider: crash.test.ts).
    const limiter = h.app.runtime.ports.limiter;
    const hitMany = limiter.hitMany;
    limiter.hitMany = async () => {
      throw new Error("the limiter port exploded");
    };
    try {
      // With retries left, the attempt fails and is retried; the broadcast is still sending.
      await expect(runJob(broadcastRunJob, services, payload, { id: "attempt-4", retryCount: 3, retryLimit: 10 })).rejects.toThrow(/exploded/);
      expect((await h.app.call("GET", `/broadcasts/${created.id}`, { key: seeded.key })).body.status).toBe("SENDING");
      // The last attempt pauses it and says why, instead of leaving it SENDING with no sender.
      await runJob(broadcastRunJob, services, payload, { id: "attempt-11", retryCount: 10, retryLimit: 10 });
      const paused = await h.app.call("GET", `/broadcasts/${created.id}`, { key: seeded.key });
      expect(paused.body).toMatchObject({ status: "PAUSED", pause_reason: "sender_failed" });
    } finally {
      limiter.hitMany = hitMany;
    }
    expect((await write(h, seeded.key, `/broadcasts/${created.id}/send`)).body.status).toBe("SENDING");
    await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
    for (const to of opted) expect(sentTo(to)).toHaveLength(1);
  });

  it("pauses when the provider pauses the template, refuses to resume until it is approved again, then completes", async () => {
    const { template } = await readyChannel(h, seeded.key, "paused_later");
    const channelId = template.channel_id as string;
    const opted = await optedIn(h, seeded.key, 2, channelId);
    const created = await createBroadcast(h, seeded.key, {
      name: "Paused",
      channel_id: channelId,
      template: { id: template.id },
      recipients: opted.map((to) => ({ to, parameters: { "1": "x" } })),
    });
    await forceReview(h, template.meta_template_id, { status: "PAUSED" });
    await h.settle(20);
    // The pause arrived before the send: send refuses. A pause during sending pauses the broadcast.
    const refused = await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    expect(refused.body).toMatchObject({ error: "template_not_approved", template_status: "PAUSED" });
    await forceReview(h, template.meta_template_id, { status: "APPROVED" });
    await h.settle(20);
    const sending = await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    expect(sending.body.status).toBe("SENDING");
    await forceReview(h, template.meta_template_id, { status: "PAUSED" });
    await h.settle(20);
    const after = await h.app.call("GET", `/broadcasts/${created.id}`, { key: seeded.key });
    if (after.body.status === "PAUSED") {
      expect(after.body.pause_reason).toBe("template_paused");
      await forceReview(h, template.meta_template_id, { status: "APPROVED" });
      await h.settle(20);
      expect((await write(h, seeded.key, `/broadcasts/${created.id}/send`)).body.status).toBe("SENDING");
    } else {
      // The two sends were faster than the pause: nothing was left to pause.
      expect(after.body.status).toBe("COMPLETED");
    }
    await runUntil(h, seeded.key, created.id, ["COMPLETED"]);
    const [row] = await h.app.db.select().from(channels).where(eq(channels.id, channelId));
    for (const to of opted) expect(h.server.simulator.state.inbox(row!.providerSenderId!, to)).toHaveLength(1);
  });
});
