import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { channels, contacts, conversations, inboundWebhooks, messages, projects } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "./support/app";
import { expectError, expectHandlerHeaders, expectRateLimitHeaders } from "./support/wire";
import { startHarness, type Harness } from "./messages/support";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

let serial = 0;
function senderId() {
  serial += 1;
  return `pn${Date.now().toString(36)}${serial}`;
}

/** A project of its own with a connected dedicated PLATFORM_A channel (its number). */
async function connected(seeded?: Seeded) {
  const project = seeded ?? (await h.app.seed({ orgName: `Disconnect org ${serial}` }));
  const phoneNumberId = senderId();
  const res = await h.app.call("POST", "/channels", {
    key: project.key,
    body: {
      platform: "PLATFORM_A",
      display_name: "Support line",
      phone_number: "+14155550199",
      credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-${phoneNumberId}`, access_token: `EAAG-secret-${phoneNumberId}` },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { project, channelId: res.body.id as string, phoneNumberId };
}

async function channelRow(id: string) {
  const [row] = await h.app.db.select().from(channels).where(eq(channels.id, id));
  return row!;
}

/** A customer writes to the channel's number through the simulator (a provider-signed webhook). */
async function customerWrites(phoneNumberId: string, from: string, text: string) {
  const sent = await h.customer({ sender_id: phoneNumberId, from, name: "Lee", type: "text", text });
  expect(sent.delivered_status).toBe(200);
  await h.settle(10);
}

const disconnect = (key: string, id: string) => h.app.call("DELETE", `/channels/${id}`, { key });

describe("DELETE /channels/{id}", () => {
  it("disconnects: status disconnected, credentials wiped, answers the Channel with why nothing flows", async () => {
    const { project, channelId, phoneNumberId } = await connected();
    expect((await channelRow(channelId)).credentialsSealed).not.toBeNull();
    const res = await disconnect(project.key, channelId);
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expectRateLimitHeaders(res);
    expect(res.body).toMatchObject({
      object: "channel",
      id: channelId,
      channel_id: channelId,
      platform: "PLATFORM_A",
      status: "disconnected",
      display_name: "Support line",
      phone_number: "+14155550199",
      number_mode: "dedicated",
      is_sandbox: false,
    });
    expect(res.body.routing_warning).toContain("disconnected");
    expect(res.body.publish_readiness.blockers).toEqual(expect.arrayContaining(["CHANNEL_NOT_CONNECTED", "MISSING_CHANNEL_CREDENTIALS"]));
    expect(res.body.publish_readiness).toMatchObject({ can_publish_flows: false, can_submit_templates: false });
    // The row: no credentials left; the sender id stays to recognise late inbound.
    const row = await channelRow(channelId);
    expect(row).toMatchObject({ status: "disconnected", credentialsSealed: null, providerSenderId: phoneNumberId });
    expect(JSON.stringify(row)).not.toContain("EAAG-secret");
    expect((await h.app.call("GET", `/channels/${channelId}`, { key: project.key })).body).toEqual(res.body);
  });

  it("disconnecting again is a 200 with the same channel, changing nothing", async () => {
    const { project, channelId } = await connected();
    const first = await disconnect(project.key, channelId);
    const before = await channelRow(channelId);
    h.app.clock.advance(60_000);
    const again = await disconnect(project.key, channelId);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await channelRow(channelId)).updatedAt).toEqual(before.updatedAt);
  });

  it("422 unprocessable for the shared sandbox, which stays connected", async () => {
    const project = await h.app.seed({ orgName: "Sandbox disconnect org" });
    const res = await disconnect(project.key, SANDBOX_CHANNEL_ID);
    expectError(res, 422, "unprocessable");
    expectHandlerHeaders(res);
    expect(res.body.message).toContain("PATCH /projects/{id}");
    expect(await channelRow(SANDBOX_CHANNEL_ID)).toMatchObject({ status: "connected" });
  });

  it("404 for another organization's channel (indistinguishable from an unknown id), which stays connected", async () => {
    const { channelId } = await connected();
    const stranger = await h.app.seed({ orgName: "Stranger org" });
    const theirs = await disconnect(stranger.key, channelId);
    expectError(theirs, 404, "not_found");
    expectHandlerHeaders(theirs);
    const unknown = await disconnect(stranger.key, "ch_00000000000000000000000000");
    expectError(unknown, 404, "not_found");
    expect(theirs.body.message.replace(channelId, "ID")).toBe(unknown.body.message.replace("ch_00000000000000000000000000", "ID"));
    expect(await channelRow(channelId)).toMatchObject({ status: "connected", credentialsSealed: expect.any(String) });
  });

  it("a sibling project's key cannot disconnect it: 404, as for any other project's id (tests/channels-sibling-writes.test.ts)", async () => {
    const { project, channelId } = await connected();
    const sibling = await h.app.addProject(project, "Sibling");
    expectError(await disconnect(sibling.key, channelId), 404, "not_found");
    expect(await channelRow(channelId)).toMatchObject({ status: "connected" });
  });

  it("needs channels:write", async () => {
    const { project, channelId } = await connected();
    const reader = await h.app.addKey(project, ["channels:read"]);
    const denied = await disconnect(reader, channelId);
    expectError(denied, 403, "insufficient_scope");
    expect(denied.body.required_scope).toBe("channels:write");
    expect((await channelRow(channelId)).status).toBe("connected");
    const writer = await h.app.addKey(project, ["channels:write"]);
    expect((await disconnect(writer, channelId)).status).toBe(200);
    expectError(await h.app.call("DELETE", `/channels/${channelId}`), 401, "missing_api_key");
  });
});

describe("a disconnected channel", () => {
  let project: Seeded;
  let channelId: string;
  let phoneNumberId: string;
  let conversationId: string;
  /** Queued before the disconnect; its provider job runs after it. */
  let queuedId: string;
  let otherConversationId: string;
  const from = "14155550123";
  const otherCustomer = "14155550124";

  // Each test gets its own disconnected channel: reconnecting the number or writing to it would
  // otherwise change what the next test reads.
  beforeEach(async () => {
    ({ project, channelId, phoneNumberId } = await connected());
    await customerWrites(phoneNumberId, from, "hello before");
    const list = await h.app.call("GET", "/conversations", { key: project.key });
    expect(list.body.data).toHaveLength(1);
    conversationId = list.body.data[0].id;
    // A reply while connected is accepted and sent.
    const reply = await h.app.call("POST", "/messages", {
      key: project.key,
      body: { channel_id: channelId, conversation_id: conversationId, text: "sent while connected" },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    await h.settle(10);
    expect((await h.messageRow(reply.body.id)).platformMessageId).not.toBeNull();
    // Another customer's reply, still queued (no job has run) when the channel is disconnected
    // (another recipient: pair pacing allows one new message per 6 s to the same one).
    await customerWrites(phoneNumberId, otherCustomer, "hello from the other one");
    const other = (await h.app.call("GET", "/conversations", { key: project.key })).body.data.find((c: any) => c.id !== conversationId);
    otherConversationId = other.id;
    const queued = await h.app.call("POST", "/messages", {
      key: project.key,
      body: { channel_id: channelId, conversation_id: otherConversationId, text: "queued at the disconnect" },
    });
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    queuedId = queued.body.id;
    expect((await disconnect(project.key, channelId)).status).toBe(200);
    await h.settle(10);
  });

  it("keeps its history: the conversation and its messages still read", async () => {
    const conversation = await h.app.call("GET", `/conversations/${conversationId}`, { key: project.key });
    expect(conversation.status).toBe(200);
    const history = await h.app.call("GET", `/conversations/${conversationId}/messages`, { key: project.key });
    expect(history.body.data.map((m: any) => m.content)).toEqual(["sent while connected", "hello before"]);
    const other = await h.app.call("GET", `/conversations/${otherConversationId}/messages`, { key: project.key });
    expect(other.body.data.map((m: any) => m.content)).toEqual(["queued at the disconnect", "hello from the other one"]);
    expect((await h.app.call("GET", `/conversations?channel_id=${channelId}`, { key: project.key })).body.data.map((c: any) => c.id)).toEqual([
      otherConversationId,
      conversationId,
    ]);
  });

  it("fails a message that was still queued when it was disconnected, saying why", async () => {
    const row = await h.messageRow(queuedId);
    expect(row.status).toBe("failed");
    expect(row.platformMessageId).toBeNull();
    expect(row.failure).toMatchObject({ provider: "service", code: "channel_disconnected" });
  });

  it("refuses sends: 412 channel_not_ready with CHANNEL_NOT_CONNECTED, telling the caller to reconnect", async () => {
    const before = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId));
    const res = await h.app.call("POST", "/messages", { key: project.key, body: { channel_id: channelId, conversation_id: conversationId, text: "after" } });
    expectError(res, 412, "channel_not_ready");
    expect(res.body).toMatchObject({ channel_id: channelId, blockers: ["CHANNEL_NOT_CONNECTED"] });
    expect(res.body.message).toContain("POST /channels");
    const toNumber = await h.app.call("POST", "/messages", { key: project.key, body: { channel_id: channelId, to: "+14155550125", text: "proactive" } });
    expectError(toNumber, 412, "channel_not_ready");
    expect(await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId))).toHaveLength(before.length);
  });

  it("refuses inbound: the provider gets its 200, nothing is stored (the raw envelope is kept)", async () => {
    const envelopesBefore = (await h.app.db.select({ id: inboundWebhooks.id }).from(inboundWebhooks)).length;
    const messagesBefore = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.channelId, channelId));
    await customerWrites(phoneNumberId, from, "hello after");
    await customerWrites(phoneNumberId, "14155550999", "a new customer after");
    const envelopes = await h.app.db.select().from(inboundWebhooks);
    expect(envelopes.length).toBe(envelopesBefore + 2);
    expect(
      envelopes.filter((e) => e.body.includes("hello after") || e.body.includes("a new customer after")).map((e) => [Boolean(e.processedAt), e.error]),
    ).toEqual([
      [true, null],
      [true, null],
    ]);
    expect(await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.channelId, channelId))).toHaveLength(messagesBefore.length);
    expect(
      await h.app.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.projectId, project.projectId), eq(contacts.phone, "+14155550999"))),
    ).toEqual([]);
    expect(await h.app.db.select({ id: conversations.id }).from(conversations).where(eq(conversations.projectId, project.projectId))).toHaveLength(2);
    expect(await h.eventsOf(project.projectId, "message.received")).toHaveLength(2);
  });

  it("the number can be connected again: a new channel that becomes the project's number and receives again", async () => {
    const res = await h.app.call("POST", "/channels", {
      key: project.key,
      body: { platform: "PLATFORM_A", credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-${phoneNumberId}`, access_token: "EAAG-new" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh = res.body.id as string;
    expect(fresh).not.toBe(channelId);
    expect(res.body.status).toBe("connected");
    const [row] = await h.app.db.select({ channelId: projects.channelId }).from(projects).where(eq(projects.id, project.projectId));
    expect(row!.channelId).toBe(fresh);
    // The old row keeps its history and its status, without the sender id.
    expect(await channelRow(channelId)).toMatchObject({ status: "disconnected", providerSenderId: null });
    await customerWrites(phoneNumberId, from, "hello again");
    const stored = await h.app.db.select({ channelId: messages.channelId }).from(messages).where(eq(messages.content, "hello again"));
    expect(stored).toEqual([{ channelId: fresh }]);
  });
});
