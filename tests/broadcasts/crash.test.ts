import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { broadcasts, messages } from "@/lib/db/schema";
import { broadcastRunJob } from "@/lib/domain/broadcasts/jobs";
import { runJob } from "@/lib/jobs/define";
import { networkFailure } from "@/lib/ports/provider/graph-http";
import type { ProviderPort } from "@/lib/ports/provider/types";
import { servicesOf } from "@/lib/server/runtime";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createBroadcast, optedIn, readyChannel, recipientsOf, runUntil, write } from "./support";

/**
 * A send whose outcome the sender never learned (its worker died after the request left, or the
 * provider did not answer in time) may have reached the customer: the recipient ends `failed` with
 * error code `outcome_unknown`, counted in `stats.outcome_unknown`, and is never sent again by
 * itself. `POST /broadcasts/{id}/resend-unknown` sends exactly those recipients once more, on purpose.
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

/** One slice of the broadcast's current run, as a worker would run its job. */
async function runSlice(broadcastId: string) {
  const [row] = await h.app.db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
  const payload = { broadcastId, generation: row!.runGeneration };
  return runJob(broadcastRunJob, servicesOf(h.app.runtime), payload, { id: `slice-${Math.random()}`, retryCount: 0, retryLimit: 10 });
}

/** For one recipient, the provider gets the message and then the sender hears `what` instead of the answer. */
function afterReaching(to: string, what: () => Error): () => void {
  const provider: ProviderPort = h.app.runtime.ports.provider;
  const real = provider.send;
  provider.send = async (channel, recipient, message) => {
    const answer = await real(channel, recipient, message);
    if (recipient === to) throw what();
    return answer;
  };
  return () => {
    provider.send = real;
  };
}

async function sendingTo(count: number, name: string) {
  const numbers = await optedIn(h, seeded.key, count, ready.channel.id);
  const created = await createBroadcast(h, seeded.key, {
    name,
    channel_id: ready.channel.id,
    template: { id: ready.template.id },
    recipients: numbers.map((to) => ({ to, parameters: { "1": "x" } })),
  });
  expect((await write(h, seeded.key, `/broadcasts/${created.id}/send`)).body.status).toBe("SENDING");
  return { id: created.id, numbers };
}

describe("a send whose outcome is unknown", () => {
  it("reached the provider before its worker died: failed outcome_unknown, never sent again, counted in the stats", { timeout: 30_000 }, async () => {
    const { id, numbers } = await sendingTo(3, "Worker died mid-send");
    const [lost, ...others] = numbers as [string, ...string[]];
    const restore = afterReaching(lost, () => new Error("the worker was killed"));
    try {
      await expect(runSlice(id)).rejects.toThrow(/killed/);
    } finally {
      restore();
    }
    // The job runs again (pg-boss's retry, or a new worker taking the run over).
    await runSlice(id);
    const done = await runUntil(h, seeded.key, id, ["COMPLETED"]);
    expect(done.stats).toMatchObject({ total: 3, failed: 1, outcome_unknown: 1, pending: 0, queued: 0 });
    expect(sentTo(lost)).toHaveLength(1);
    for (const to of others) expect(sentTo(to)).toHaveLength(1);

    const rows = await recipientsOf(h, id);
    const row = rows.find((r) => r.to === lost)!;
    expect(row.status).toBe("failed");
    expect(row.error).toMatchObject({ code: "outcome_unknown" });
    const [message] = await h.app.db.select().from(messages).where(eq(messages.id, row.messageId!));
    expect(message).toMatchObject({ status: "failed", failure: expect.objectContaining({ code: "outcome_unknown" }) });

    const failed = await h.app.call("GET", `/broadcasts/${id}/recipients?status=failed`, { key: seeded.key });
    expect(failed.body.data).toHaveLength(1);
    expect(failed.body.data[0]).toMatchObject({ to: lost, status: "failed", error_code: "outcome_unknown" });
    expect(failed.body.data[0].error).toMatch(/^outcome_unknown: /);
    // The customer's integration hears it as a failed message with that code.
    const events = await h.eventsOf(seeded.projectId, "message.status");
    const event = events.find((e) => (e.payload as { message_id?: string }).message_id === row.messageId);
    expect(event?.payload).toMatchObject({ status: "failed", failure: { code: "outcome_unknown" } });
  });

  it("the provider did not answer in time: failed outcome_unknown at once, not retried", async () => {
    const { id, numbers } = await sendingTo(2, "Provider timed out");
    const [slow, other] = numbers as [string, string];
    const restore = afterReaching(slow, () => networkFailure(Object.assign(new Error("Headers Timeout Error"), { name: "HeadersTimeoutError" }), new Date()));
    try {
      await runSlice(id);
    } finally {
      restore();
    }
    const done = await runUntil(h, seeded.key, id, ["COMPLETED"]);
    expect(done.stats).toMatchObject({ total: 2, failed: 1, outcome_unknown: 1 });
    expect(sentTo(slow)).toHaveLength(1);
    expect(sentTo(other)).toHaveLength(1);
    const row = (await recipientsOf(h, id)).find((r) => r.to === slow)!;
    expect(row).toMatchObject({ status: "failed", attempts: 0, error: expect.objectContaining({ code: "outcome_unknown" }) });
  });
});

describe("POST /broadcasts/{id}/resend-unknown", () => {
  it("sends the recipients whose outcome is unknown once more, and only them", { timeout: 30_000 }, async () => {
    const { id, numbers } = await sendingTo(3, "Resend on purpose");
    const [lost, ...others] = numbers as [string, ...string[]];
    // Refused while it is still sending: what is unknown is not settled yet.
    expect((await write(h, seeded.key, `/broadcasts/${id}/resend-unknown`)).body).toMatchObject({ error: "broadcast_not_editable", status: "SENDING" });
    const restore = afterReaching(lost, () => new Error("the worker was killed"));
    try {
      await expect(runSlice(id)).rejects.toThrow(/killed/);
    } finally {
      restore();
    }
    await runSlice(id);
    expect((await runUntil(h, seeded.key, id, ["COMPLETED"])).stats).toMatchObject({ outcome_unknown: 1 });
    expect((await write(h, seeded.key, `/broadcasts/${id}/resend-unknown`, {}, null)).body).toMatchObject({ error: "idempotency_key_required" });
    const other = await h.app.addProject(seeded, "Elsewhere");
    expect((await write(h, other.key, `/broadcasts/${id}/resend-unknown`)).status).toBe(404);

    const key = "resend-1";
    const resent = await write(h, seeded.key, `/broadcasts/${id}/resend-unknown`, {}, key);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ status: "SENDING", completed_at: null, stats: { pending: 1, failed: 0, outcome_unknown: 0 } });
    const done = await runUntil(h, seeded.key, id, ["COMPLETED"]);
    await h.settle(40);
    expect(sentTo(lost)).toHaveLength(2);
    for (const to of others) expect(sentTo(to)).toHaveLength(1);
    expect(done.stats).toMatchObject({ total: 3, failed: 0, outcome_unknown: 0, pending: 0 });

    // The same request again is answered as before and sends nothing; a new one finds nothing to resend.
    const replay = await write(h, seeded.key, `/broadcasts/${id}/resend-unknown`, {}, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const again = await write(h, seeded.key, `/broadcasts/${id}/resend-unknown`);
    expect(again.body).toMatchObject({ status: "COMPLETED", stats: { outcome_unknown: 0 } });
    await h.settle(40);
    expect(sentTo(lost)).toHaveLength(2);
  });

  it("is refused for a broadcast that never sent", async () => {
    const numbers = await optedIn(h, seeded.key, 1, ready.channel.id);
    const draft = await createBroadcast(h, seeded.key, {
      name: "Draft",
      channel_id: ready.channel.id,
      template: { id: ready.template.id },
      recipients: [{ to: numbers[0], parameters: { "1": "x" } }],
    });
    const refused = await write(h, seeded.key, `/broadcasts/${draft.id}/resend-unknown`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "broadcast_not_editable", status: "DRAFT" });
  });
});
