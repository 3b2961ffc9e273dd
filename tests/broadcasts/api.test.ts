import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createTemplate, forceReview } from "../templates/support";
import { createBroadcast, customerNumber, optedIn, readyChannel, write } from "./support";

/**
 * The broadcast API (docs/spec/decisions.md "Broadcasts"): Idempotency-Key on every write, creation
 * rules, recipients with per-row errors and duplicates, the state machine, tenant isolation.
 */
let h: Harness;
let seeded: Seeded;
let other: Seeded;
let channelId: string;
let templateId: string;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  other = await h.app.seed();
  const ready = await readyChannel(h, seeded.key);
  channelId = ready.channel.id;
  templateId = ready.template.id;
});
afterAll(() => h.close());

const base = () => ({ name: "Spring sale", channel_id: channelId, template: { id: templateId } });

describe("Idempotency-Key on broadcast writes", () => {
  it("is required on create, recipients, send, pause and cancel", async () => {
    const created = await createBroadcast(h, seeded.key, base());
    for (const path of [
      "/broadcasts",
      `/broadcasts/${created.id}/recipients`,
      `/broadcasts/${created.id}/send`,
      `/broadcasts/${created.id}/pause`,
      `/broadcasts/${created.id}/cancel`,
    ]) {
      const body = path === "/broadcasts" ? base() : path.endsWith("recipients") ? { recipients: [{ to: "+15550000001" }] } : {};
      const res = await write(h, seeded.key, path, body, null);
      expect(res.status, path).toBe(400);
      expect(res.body.error).toBe("idempotency_key_required");
    }
  });

  it("replays the first answer for the same key and body, and refuses the key with another body", async () => {
    const first = await write(h, seeded.key, "/broadcasts", base(), "bc-replay-1");
    const again = await write(h, seeded.key, "/broadcasts", base(), "bc-replay-1");
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const other = await write(h, seeded.key, "/broadcasts", { ...base(), name: "Another" }, "bc-replay-1");
    expect(other.status).toBe(409);
    expect(other.body.error).toBe("idempotency_key_reused");
  });
});

describe("POST /broadcasts", () => {
  it("creates a DRAFT with the template's name and language and empty stats", async () => {
    const created = await createBroadcast(h, seeded.key, { ...base(), recipients: [{ to: "+15551230001", parameters: { "1": "Ana" } }] });
    expect(created).toMatchObject({
      object: "broadcast",
      status: "DRAFT",
      channel_id: channelId,
      template: { id: templateId, name: "spring_sale", language: "en_US" },
      send_at: null,
      pause_reason: null,
    });
    expect(created.stats).toEqual({ total: 1, pending: 1, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0, outcome_unknown: 0 });
  });

  it("refuses the shared sandbox, an unknown template and a send_at in the past", async () => {
    const sandbox = await write(h, seeded.key, "/broadcasts", { ...base(), channel_id: "ch_sandbox" });
    expect([404, 412]).toContain(sandbox.status);
    const unknown = await write(h, seeded.key, "/broadcasts", { ...base(), template: { name: "nope", language: "en_US" } });
    expect(unknown.status).toBe(404);
    const past = await write(h, seeded.key, "/broadcasts", { ...base(), send_at: "2001-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    expect(past.body.issues.send_at).toBeDefined();
  });

  it("writes nothing when an inline recipient is invalid", async () => {
    const res = await write(h, seeded.key, "/broadcasts", {
      ...base(),
      name: "all or nothing",
      recipients: [{ to: "+15551230002", parameters: { "1": "x" } }, { to: "not a number" }],
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.issues)).toEqual(["recipients.1"]);
    const list = await h.app.call("GET", "/broadcasts?limit=100", { key: seeded.key });
    expect(list.body.data.some((b: { name: string }) => b.name === "all or nothing")).toBe(false);
  });
});

describe("POST /broadcasts/{id}/recipients", () => {
  it("adds valid rows, counts duplicates and reports each bad row by index", async () => {
    const created = await createBroadcast(h, seeded.key, base());
    const [known] = await optedIn(h, seeded.key, 1, channelId);
    const contact = await h.app.call("GET", `/contacts?limit=100`, { key: seeded.key });
    const contactId = contact.body.data.find((c: { phone: string }) => c.phone === `+${known}`).id;
    const a = customerNumber();
    const res = await write(h, seeded.key, `/broadcasts/${created.id}/recipients`, {
      recipients: [
        { to: `+${a}`, parameters: { "1": "Ana" } },
        { to: a, parameters: { "1": "Ana again" } },
        { contact_id: contactId, parameters: { "1": "Bo" } },
        { to: "12", parameters: { "1": "x" } },
        { to: `+${customerNumber()}` },
        { to: `+${customerNumber()}`, parameters: { "1": "x", "2": "y" } },
        { contact_id: "ct_unknown", parameters: { "1": "x" } },
        { to: `+${customerNumber()}`, contact_id: contactId },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "broadcast_recipients_added", added: 2, duplicates: 1 });
    expect(res.body.errors.map((e: { index: number }) => e.index)).toEqual([3, 4, 5, 6, 7]);
    expect(res.body.errors[1].message).toMatch(/variables/);
    const again = await write(h, seeded.key, `/broadcasts/${created.id}/recipients`, { recipients: [{ to: `+${a}`, parameters: { "1": "Ana" } }] });
    expect(again.body).toMatchObject({ added: 0, duplicates: 1, errors: [] });
    const listed = await h.app.call("GET", `/broadcasts/${created.id}/recipients?status=pending`, { key: seeded.key });
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data.find((r: { contact_id: string | null }) => r.contact_id === contactId)).toMatchObject({
      object: "broadcast_recipient",
      to: known,
      status: "pending",
    });
  });

  it("takes at most 1,000 rows a call", async () => {
    const created = await createBroadcast(h, seeded.key, base());
    const recipients = Array.from({ length: 1001 }, (_, i) => ({ to: `+1555999${String(i).padStart(4, "0")}`, parameters: { "1": "x" } }));
    const res = await write(h, seeded.key, `/broadcasts/${created.id}/recipients`, { recipients });
    expect(res.status).toBe(400);
  });
});

describe("the broadcast state machine", () => {
  it("refuses to send without recipients (422) or with a template that is not APPROVED (409)", async () => {
    const empty = await createBroadcast(h, seeded.key, base());
    const none = await write(h, seeded.key, `/broadcasts/${empty.id}/send`);
    expect(none.status).toBe(422);
    expect(none.body.error).toBe("broadcast_has_no_recipients");
    const pending = await createTemplate(h, seeded.key, {
      channel_id: channelId,
      name: "not_yet",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Not reviewed." }],
    });
    h.server.simulator.state.templates.delete(pending.meta_template_id);
    const draft = await createBroadcast(h, seeded.key, { ...base(), template: { id: pending.id }, recipients: [{ to: `+${customerNumber()}` }] });
    const refused = await write(h, seeded.key, `/broadcasts/${draft.id}/send`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "template_not_approved", template_status: "PENDING" });
  });

  it("schedules with send_at, pauses and cancels; edits after sending are 409 broadcast_not_editable", async () => {
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const created = await createBroadcast(h, seeded.key, {
      ...base(),
      send_at: sendAt,
      recipients: [{ to: `+${customerNumber()}`, parameters: { "1": "x" } }],
    });
    const scheduled = await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    expect(scheduled.body).toMatchObject({ status: "SCHEDULED", send_at: sendAt });
    expect((await write(h, seeded.key, `/broadcasts/${created.id}/send`)).body.status).toBe("SCHEDULED");
    const paused = await write(h, seeded.key, `/broadcasts/${created.id}/pause`);
    expect(paused.body).toMatchObject({ status: "PAUSED", pause_reason: "paused_by_user" });
    const cancelled = await write(h, seeded.key, `/broadcasts/${created.id}/cancel`);
    expect(cancelled.body.status).toBe("CANCELLED");
    expect(cancelled.body.stats).toMatchObject({ pending: 0, skipped: 1 });
    const edit = await write(h, seeded.key, `/broadcasts/${created.id}/recipients`, { recipients: [{ to: `+${customerNumber()}`, parameters: { "1": "x" } }] });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe("broadcast_not_editable");
    const resend = await write(h, seeded.key, `/broadcasts/${created.id}/send`);
    expect(resend.status).toBe(409);
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another project's broadcast on every operation", async () => {
    const created = await createBroadcast(h, seeded.key, base());
    for (const [method, path] of [
      ["GET", `/broadcasts/${created.id}`],
      ["GET", `/broadcasts/${created.id}/recipients`],
      ["POST", `/broadcasts/${created.id}/recipients`],
      ["POST", `/broadcasts/${created.id}/send`],
      ["POST", `/broadcasts/${created.id}/pause`],
      ["POST", `/broadcasts/${created.id}/cancel`],
    ] as const) {
      const body = path.endsWith("recipients") && method === "POST" ? { recipients: [{ to: "+15550000002" }] } : {};
      const res = method === "GET" ? await h.app.call(method, path, { key: other.key }) : await write(h, other.key, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const channel = await write(h, other.key, "/broadcasts", base());
    expect(channel.status).toBe(404);
  });
});

export { forceReview };
