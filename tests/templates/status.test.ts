import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { normalizePlatformAWebhook } from "@/lib/domain/ingest/normalize-platform-a";
import { startHarness, type Harness } from "../messages/support";
import { settleUntil } from "../messages/send-support";
import type { Seeded } from "../support/app";
import { connectNumber, createTemplate, forceReview, templateBody } from "./support";

/** Review results: the provider's `message_template_status_update` webhook → status, stamps and template.status. */
let h: Harness;
let seeded: Seeded;
let channel: { id: string; businessAccountId: string };
let names = 0;
const nextName = () => `review_${++names}`;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  channel = await connectNumber(h, seeded.key);
});
afterAll(() => h.close());

function envelope(businessAccountId: string, value: Record<string, unknown>) {
  return {
    object: "whatsapp_business_account",
    entry: [{ id: businessAccountId, time: 1760000000, changes: [{ field: "message_template_status_update", value }] }],
  };
}

/** A review webhook as the provider signs and posts it to our PLATFORM_A endpoint, then ingest runs. */
async function deliver(value: Record<string, unknown>, businessAccountId = channel.businessAccountId) {
  const body = JSON.stringify(envelope(businessAccountId, value));
  const res = await fetch(`${h.server.url}/api/providers/platform-a/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(simulatorAppSecret("PLATFORM_A"), body) },
    body,
  });
  expect(res.status).toBe(200);
  await h.app.runtime.ports.queue.drain();
}

/**
 * A submitted template whose review only these tests decide: the simulator forgets it, so its own
 * timed review never fires.
 */
async function submitted() {
  const template = await createTemplate(h, seeded.key, templateBody(channel.id, { name: nextName() }));
  h.server.simulator.state.templates.delete(template.meta_template_id);
  return template;
}

const review = (template: { meta_template_id: string; name: string }, event: string, extra: Record<string, unknown> = {}) => ({
  event,
  message_template_id: Number(template.meta_template_id),
  message_template_name: template.name,
  message_template_language: "en_US",
  reason: "NONE",
  ...extra,
});

async function statusEvents(templateId: string) {
  return (await h.eventsOf(seeded.projectId, "template.status")).map((e) => e.payload as Record<string, unknown>).filter((p) => p.template_id === templateId);
}

const get = async (id: string) => (await h.app.call("GET", `/templates/${id}`, { key: seeded.key })).body;

describe("review webhook normalisation", () => {
  it("becomes a template_status event addressed to the business account; reason NONE is no reason", () => {
    const events = normalizePlatformAWebhook(envelope("waba-1", { event: "APPROVED", message_template_id: 1234567890123456, reason: "NONE" }));
    expect(events).toEqual([
      { platform: "PLATFORM_A", senderId: "waba-1", kind: "template_status", template_id: "1234567890123456", event: "APPROVED", reason: null },
    ]);
  });

  it("keeps a rejection's reason, and explains a pause from other_info", () => {
    const [rejected] = normalizePlatformAWebhook(envelope("waba-1", { event: "REJECTED", message_template_id: "77", reason: "INVALID_FORMAT" }));
    expect(rejected).toMatchObject({ event: "REJECTED", reason: "INVALID_FORMAT" });
    const [paused] = normalizePlatformAWebhook(
      envelope("waba-1", { event: "PAUSED", message_template_id: 77, reason: null, other_info: { title: "FIRST_PAUSE", description: "Paused for 3 hours." } }),
    );
    expect(paused).toMatchObject({ event: "PAUSED", reason: "Paused for 3 hours." });
  });

  it.each([
    ["no template id", { event: "APPROVED" }],
    ["no event", { message_template_id: 1 }],
  ])("ignores a change with %s", (_name, value) => {
    expect(normalizePlatformAWebhook(envelope("waba-1", value))).toEqual([]);
  });
});

describe("applying review results", () => {
  it("APPROVED: status, approved_at and last_synced_at move, and template.status is emitted once", async () => {
    const template = await submitted();
    await deliver(review(template, "APPROVED"));
    const after = await get(template.id);
    expect(after).toMatchObject({ status: "APPROVED", rejection_reason: null, rejected_at: null });
    expect(after.approved_at).toEqual(expect.any(String));
    expect(after.last_synced_at).toEqual(expect.any(String));
    expect(await statusEvents(template.id)).toEqual([
      {
        template_id: template.id,
        meta_template_id: template.meta_template_id,
        channel_id: channel.id,
        name: template.name,
        language: "en_US",
        old_status: "PENDING",
        new_status: "APPROVED",
        reason: null,
        occurred_at: expect.any(String),
      },
    ]);
  });

  it("a provider retry of the same result changes nothing and emits nothing", async () => {
    const template = await submitted();
    await deliver(review(template, "APPROVED"));
    const first = await get(template.id);
    await deliver(review(template, "APPROVED"));
    expect(await get(template.id)).toEqual(first);
    expect(await statusEvents(template.id)).toHaveLength(1);
  });

  it("REJECTED: rejection_reason and rejected_at, and the reason in the event", async () => {
    const template = await submitted();
    await deliver(review(template, "REJECTED", { reason: "INVALID_FORMAT" }));
    const after = await get(template.id);
    expect(after).toMatchObject({ status: "REJECTED", rejection_reason: "INVALID_FORMAT", approved_at: null });
    expect(after.rejected_at).toEqual(expect.any(String));
    expect(await statusEvents(template.id)).toEqual([expect.objectContaining({ old_status: "PENDING", new_status: "REJECTED", reason: "INVALID_FORMAT" })]);
  });

  it("PAUSED, DISABLED and a REINSTATED pause each move the status with their event", async () => {
    const template = await submitted();
    await deliver(review(template, "APPROVED"));
    await deliver(review(template, "PAUSED", { reason: null, other_info: { title: "FIRST_PAUSE", description: "Paused for 3 hours." } }));
    expect((await get(template.id)).status).toBe("PAUSED");
    await deliver(review(template, "REINSTATED"));
    expect((await get(template.id)).status).toBe("APPROVED");
    await deliver(review(template, "DISABLED"));
    expect((await get(template.id)).status).toBe("DISABLED");
    const moves = (await statusEvents(template.id)).map((p) => [p.old_status, p.new_status, p.reason]);
    expect(moves).toEqual([
      ["PENDING", "APPROVED", null],
      ["APPROVED", "PAUSED", "Paused for 3 hours."],
      ["PAUSED", "APPROVED", null],
      ["APPROVED", "DISABLED", null],
    ]);
  });

  it("ignores events that are no status of ours (FLAGGED), unknown template ids and another business account's ids", async () => {
    const template = await submitted();
    await deliver(review(template, "FLAGGED"));
    await deliver({ ...review(template, "APPROVED"), message_template_id: 999 });
    await deliver(review(template, "APPROVED"), "waba-somebody-else");
    expect(await get(template.id)).toMatchObject({ status: "PENDING", last_synced_at: null });
    expect(await statusEvents(template.id)).toEqual([]);
  });
});

describe("the simulator's review", () => {
  it("a forced rejection arrives through the signed webhook", async () => {
    const template = await createTemplate(h, seeded.key, templateBody(channel.id, { name: nextName() }));
    const forced = await forceReview(h, template.meta_template_id, { status: "REJECTED" });
    expect(forced.delivered_status).toBe(200);
    await h.app.runtime.ports.queue.drain();
    expect(await get(template.id)).toMatchObject({ status: "REJECTED", rejection_reason: "INVALID_FORMAT" });
  });

  it("the timed review approves a template, and rejects a body that ends with a variable (INVALID_FORMAT)", async () => {
    const good = await createTemplate(h, seeded.key, templateBody(channel.id, { name: nextName() }));
    const edge = await createTemplate(
      h,
      seeded.key,
      templateBody(channel.id, { name: nextName(), components: [{ type: "BODY", text: "Your code is {{1}}", example: { body_text: [["123"]] } }] }),
    );
    expect(edge.status).toBe("PENDING");
    const reviewed = await settleUntil(h, async () => (await get(good.id)).status !== "PENDING" && (await get(edge.id)).status !== "PENDING", 20_000);
    expect(reviewed).toBe(true);
    expect(await get(good.id)).toMatchObject({ status: "APPROVED" });
    expect(await get(edge.id)).toMatchObject({ status: "REJECTED", rejection_reason: "INVALID_FORMAT" });
    expect((await statusEvents(good.id)).map((p) => p.new_status)).toEqual(["APPROVED"]);
  });
});
