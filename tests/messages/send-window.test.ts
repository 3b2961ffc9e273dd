/**
 * POST /messages: who may be messaged, and when. conversation_id xor to; `to` needs a dedicated channel
 * and (require_opt_in) an opt-in; free-form messages need the customer's message on THAT channel within
 * 24 h (provider timestamp); handoff is a hard stop; sandbox replies go to joined testers only; keys,
 * scopes and tenancy.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq, max } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { expectError } from "../support/wire";
import type { Harness } from "./support";
import {
  createDedicatedChannel,
  joinCodeOf,
  joinTesters,
  outboundRows,
  send,
  settleUntil,
  sleep,
  startSendHarness,
  testerNumber,
  type Joined,
} from "./send-support";

const DAY_MS = 24 * 3600_000;

let h: Harness;
let acme: Seeded;
let globex: Seeded;
let dedicated: { id: string; phoneNumberId: string };
let joined: Joined;
const W = testerNumber(); // window
const HO = testerNumber(); // handoff
const N = testerNumber(); // leaves the project

beforeAll(async () => {
  h = await startSendHarness();
  acme = await h.app.seed();
  globex = await h.app.seed({ orgName: "Globex" });
  dedicated = await createDedicatedChannel(h, acme.key);
  joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), [W, HO, N]);
});
afterAll(() => h?.close());

/** The customer writes on a dedicated channel (its phone_number_id is the provider sender); acme's by default. */
async function writesOnDedicated(from: string, text: string, channel = dedicated) {
  await h.customer({ from, sender_id: channel.phoneNumberId, type: "text", text });
}

async function lastInboundAt(conversationId: string, channelId: string): Promise<Date> {
  const [row] = await h.app.db
    .select({ at: max(messages.providerTimestamp) })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.channelId, channelId), eq(messages.direction, "inbound")));
  return new Date(row!.at!);
}

describe("conversation_id xor to", () => {
  it("both, or neither, is a 400 naming both fields", async () => {
    const both = await send(h, acme.key, { channel_id: dedicated.id, conversation_id: joined.conversations[W], to: "+14155550123", text: "hi" });
    expectError(both, 400, "invalid_request");
    expect(Object.keys(both.body.issues)).toEqual(expect.arrayContaining(["conversation_id", "to"]));
    const neither = await send(h, acme.key, { channel_id: dedicated.id, text: "hi" });
    expectError(neither, 400, "invalid_request");
    expect(Object.keys(neither.body.issues)).toEqual(expect.arrayContaining(["conversation_id", "to"]));
  });

  it("`to` on the shared sandbox is 422 feature_unsupported_on_channel", async () => {
    const res = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, to: `+${W}`, text: "hi" });
    expectError(res, 422, "feature_unsupported_on_channel");
  });
});

describe("`to` on a dedicated PLATFORM_A channel", () => {
  const optedIn = testerNumber();
  const writer = testerNumber();
  /** Each test's own project and dedicated channel: the tests count the project's contacts and messages. */
  let project: Seeded;
  let channel: { id: string; phoneNumberId: string };
  beforeEach(async () => {
    project = await h.app.seed({ orgName: "To org" });
    channel = await createDedicatedChannel(h, project.key);
  });

  /** `optedIn` opted in on the channel, with the conversation a template send opened (and no message of theirs). */
  async function optedInWithTemplate() {
    const contact = await h.app.call("POST", "/contacts", { key: project.key, body: { phone: `+${optedIn}`, channel_id: channel.id, opt_in: true } });
    expect(contact.status).toBe(200);
    const res = await send(h, project.key, { channel_id: channel.id, to: `+${optedIn}`, template: { name: "welcome", language: "en" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it("without an opt-in (require_opt_in true) is 409 contact_opt_in_required, and leaves no contact or message behind", async () => {
    const res = await send(h, project.key, { channel_id: channel.id, to: `+${optedIn}`, template: { name: "welcome", language: "en" } });
    expectError(res, 409, "contact_opt_in_required");
    const contacts = await h.app.call("GET", "/contacts?limit=100", { key: project.key });
    expect((contacts.body.data as { phone: string }[]).some((c) => c.phone === `+${optedIn}`)).toBe(false);
    expect(await outboundRows(h, project.projectId)).toHaveLength(0);
  });

  it("after POST /contacts {phone, opt_in: true} a template send is 200 and creates the conversation", async () => {
    const contact = await h.app.call("POST", "/contacts", { key: project.key, body: { phone: `+${optedIn}`, channel_id: channel.id, opt_in: true } });
    expect(contact.status).toBe(200);
    const res = await send(h, project.key, { channel_id: channel.id, to: `+${optedIn}`, template: { name: "welcome", language: "en" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: "message", status: "queued", contact_id: contact.body.id, conversation_id: expect.stringMatching(/^conv_/) });
  });

  it("a text to an opted-in contact who never wrote is 409 outside_messaging_window", async () => {
    await optedInWithTemplate();
    const res = await send(h, project.key, { channel_id: channel.id, to: `+${optedIn}`, text: "Free-form without a window" });
    expectError(res, 409, "outside_messaging_window");
    expect(res.body.message).toMatch(/24 hours|never written/);
  });

  it("once the customer writes on that channel, a text `to` send works", async () => {
    await h.app.call("POST", "/contacts", { key: project.key, body: { phone: `+${writer}`, channel_id: channel.id, opt_in: true } });
    expectError(await send(h, project.key, { channel_id: channel.id, to: `+${writer}`, text: "Too early" }), 409, "outside_messaging_window");
    await writesOnDedicated(writer, "Hi, any news on my order?", channel);
    await h.settle(50);
    const res = await send(h, project.key, { channel_id: channel.id, to: `+${writer}`, text: "Yes: it ships today" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await settleUntil(h, async () => (await h.messageRow(res.body.id)).status === "read")).toBe(true);
  });

  it("with require_opt_in false no opt-in is needed", async () => {
    const patch = await h.app.call("PATCH", `/projects/${project.projectId}`, { key: project.key, body: { require_opt_in: false } });
    expect(patch.status).toBe(200);
    try {
      const res = await send(h, project.key, { channel_id: channel.id, to: `+${testerNumber()}`, template: { name: "welcome", language: "en" } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } finally {
      await h.app.call("PATCH", `/projects/${project.projectId}`, { key: project.key, body: { require_opt_in: true } });
    }
  });
});

describe("the 24-hour window: provider timestamp of the customer's last message on THAT channel", () => {
  it("24 h after it: 409 outside_messaging_window; just under 24 h: allowed; a message on another channel does not reopen it", async () => {
    const conversationId = joined.conversations[W]!;
    const last = await lastInboundAt(conversationId, SANDBOX_CHANNEL_ID);
    try {
      h.app.clock.set(last.getTime() + DAY_MS);
      const outside = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Too late" });
      expectError(outside, 409, "outside_messaging_window");
      expect(outside.body).toMatchObject({ conversation_id: conversationId, last_customer_message_at: last.toISOString() });
      expect(outside.body.message).toContain("24 hours");
      expect(outside.body.message).toContain(last.toISOString());
      expect(outside.body.message).toMatch(/template/);

      h.app.clock.set(last.getTime() + DAY_MS - 1000);
      const inside = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Just in time" });
      expect(inside.status, JSON.stringify(inside.body)).toBe(200);

      // The same customer writes on the dedicated channel (at least a second later: provider timestamps
      // are whole seconds). That opens the dedicated channel's window only.
      const wait = last.getTime() + 2000 - Date.now();
      if (wait > 0) await sleep(wait);
      await writesOnDedicated(W, "Writing on your other number");
      await h.settle(50);
      expect((await lastInboundAt(conversationId, dedicated.id)).getTime()).toBeGreaterThan(last.getTime());
      h.app.clock.set(last.getTime() + DAY_MS);
      expectError(
        await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Still closed here" }),
        409,
        "outside_messaging_window",
      );
      const other = await send(h, acme.key, { channel_id: dedicated.id, conversation_id: conversationId, text: "Open on this channel" });
      expect(other.status, JSON.stringify(other.body)).toBe(200);
    } finally {
      h.app.clock.set(Date.now());
    }
  });
});

describe("handoff", () => {
  it("on: 409 ai_handoff_active and nothing written; off: allowed again", async () => {
    const conversationId = joined.conversations[HO]!;
    const on = await h.app.call("POST", `/conversations/${conversationId}/handoff`, {
      key: acme.key,
      body: { enabled: true, reason: "Customer asked for a human" },
    });
    expect(on.status).toBe(200);
    const before = (await outboundRows(h, acme.projectId)).length;
    const refused = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Automated reply" });
    expectError(refused, 409, "ai_handoff_active");
    expect(refused.body.conversation_id).toBe(conversationId);
    expect((await outboundRows(h, acme.projectId)).length).toBe(before);

    const off = await h.app.call("POST", `/conversations/${conversationId}/handoff`, { key: acme.key, body: { enabled: false } });
    expect(off.status).toBe(200);
    const allowed = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Automated reply" });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
  });
});

describe("sandbox membership", () => {
  it("a reply to a tester who has since joined another project is 422 sandbox_recipient_not_joined", async () => {
    const elsewhere = await h.app.seed({ orgName: "Elsewhere" });
    await h.customer({ from: N, type: "text", text: `join ${await joinCodeOf(h, elsewhere.projectId)}` });
    expect(await settleUntil(h, async () => (await h.app.call("GET", "/conversations", { key: elsewhere.key })).body.data.length === 1)).toBe(true);
    const res = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[N], text: "Are you there?" });
    expectError(res, 422, "sandbox_recipient_not_joined");
    expect(res.body.message).toContain("join ");
  });
});

describe("security", () => {
  it("no key: 401; a key without messages:send: 403 insufficient_scope", async () => {
    const body = { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[W], text: "hi" };
    expectError(await h.app.call("POST", "/messages", { body }), 401, "missing_api_key");
    const readOnly = await h.app.addKey(acme, ["conversations:read"]);
    const res = await h.app.call("POST", "/messages", { key: readOnly, body });
    expectError(res, 403, "insufficient_scope");
    expect(res.body.required_scope).toBe("messages:send");
  });

  it("another project's conversation_id is 404", async () => {
    const tester = testerNumber();
    const theirs = (await joinTesters(h, globex.key, await joinCodeOf(h, globex.projectId), [tester])).conversations[tester]!;
    const res = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: theirs, text: "hi" });
    expectError(res, 404, "not_found");
  });

  it("another organization's channel_id is 404", async () => {
    const theirs = await createDedicatedChannel(h, globex.key);
    const res = await send(h, acme.key, { channel_id: theirs.id, to: `+${testerNumber()}`, template: { name: "welcome", language: "en" } });
    expectError(res, 404, "not_found");
  });
});
