/**
 * After POST /messages: provider failure and status callbacks. The simulator here reports only "sent"
 * by itself (delivered and read are scheduled a minute out and cancelled at close), so the test posts
 * every later status itself, signed as the provider signs them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import type { Harness } from "./support";
import {
  joinCodeOf,
  joinTesters,
  postProviderStatus,
  send,
  settleUntil,
  startSendHarness,
  testerNumber,
  undeliverableNumber,
  type Joined,
} from "./send-support";

let h: Harness;
let acme: Seeded;
let joined: Joined;
const UNDELIVERABLE = undeliverableNumber();
const READER = testerNumber();
const FAILER = testerNumber();

beforeAll(async () => {
  h = await startSendHarness({ statusDelaysMs: { sent: 20, delivered: 60_000, read: 60_000 } });
  acme = await h.app.seed();
  joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), [UNDELIVERABLE, READER, FAILER]);
});
afterAll(() => h?.close());

async function statusEvents(messageId: string) {
  return (await h.eventsOf(acme.projectId, "message.status")).map((e) => e.payload as Record<string, any>).filter((p) => p.message_id === messageId);
}

/** Sends a text to the tester and waits until the provider's "sent" callback has been applied. */
async function sentMessage(tester: string, text: string) {
  const res = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[tester], text });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(await settleUntil(h, async () => (await h.messageRow(res.body.id)).status === "sent")).toBe(true);
  return h.messageRow(res.body.id);
}

async function providerSays(tester: string, wamid: string, status: string, errors?: unknown[]) {
  expect(await postProviderStatus(h, { phoneNumberId: SANDBOX_PHONE_NUMBER_ID, wamid, status, recipient: tester, ...(errors ? { errors } : {}) })).toBe(200);
  await h.settle(20);
}

describe("provider failure", () => {
  it("an undeliverable recipient (131026) ends failed with every spec failure field, readable through GET /conversations/{id}/messages", async () => {
    const conversationId = joined.conversations[UNDELIVERABLE]!;
    const res = await send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Will not arrive" });
    expect(res.status).toBe(200);
    expect(await settleUntil(h, async () => (await h.messageRow(res.body.id)).status === "failed")).toBe(true);

    const history = await h.app.call("GET", `/conversations/${conversationId}/messages`, { key: acme.key });
    const message = (history.body.data as Record<string, any>[]).find((m) => m.id === res.body.id)!;
    expect(message).toMatchObject({ direction: "outbound", type: "text", status: "failed", content: "Will not arrive", platform_message_id: null });
    expect(Object.keys(message.failure).sort()).toEqual([
      "code",
      "fbtrace_id",
      "http_status",
      "message",
      "occurred_at",
      "provider",
      "subcode",
      "summary",
      "title",
      "type",
    ]);
    expect(message.failure).toEqual({
      provider: "provider",
      summary: "(#131026) Message undeliverable: Unable to deliver message. The recipient's number cannot receive messages.",
      code: 131026,
      subcode: null,
      type: "OAuthException",
      title: null,
      message: "(#131026) Message undeliverable",
      fbtrace_id: expect.any(String),
      http_status: 400,
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });

    const events = await statusEvents(res.body.id);
    expect(events.map((e) => e.status)).toEqual(["failed"]);
    expect(events[0]).toMatchObject({ conversation_id: conversationId, channel_id: SANDBOX_CHANNEL_ID, failure: message.failure });
    // The provider never accepted it: one refused call, nothing in the customer's inbox.
    expect(h.server.simulator.state.inbox(SANDBOX_PHONE_NUMBER_ID, UNDELIVERABLE)).toHaveLength(0);
  });
});

describe("status only moves forward", () => {
  it("after read, a late delivered (and sent) callback changes nothing and emits no event", async () => {
    const row = await sentMessage(READER, "Read me");
    const wamid = row.platformMessageId!;
    await providerSays(READER, wamid, "delivered");
    await providerSays(READER, wamid, "read");
    expect((await h.messageRow(row.id)).status).toBe("read");
    expect((await statusEvents(row.id)).map((e) => e.status)).toEqual(["sent", "delivered", "read"]);

    await providerSays(READER, wamid, "delivered");
    await providerSays(READER, wamid, "sent");
    expect((await h.messageRow(row.id)).status).toBe("read");
    expect((await statusEvents(row.id)).map((e) => e.status)).toEqual(["sent", "delivered", "read"]);
  });

  it("failed is terminal: later delivered and read callbacks change nothing and emit nothing", async () => {
    const row = await sentMessage(FAILER, "Fail me");
    const wamid = row.platformMessageId!;
    await providerSays(FAILER, wamid, "failed", [
      { code: 131047, title: "Re-engagement message", message: "Re-engagement message", error_data: { details: "More than 24 hours have passed." } },
    ]);
    const failed = await h.messageRow(row.id);
    expect(failed.status).toBe("failed");
    expect(failed.failure).toMatchObject({ provider: "provider", code: 131047, title: "Re-engagement message" });
    expect((await statusEvents(row.id)).map((e) => e.status)).toEqual(["sent", "failed"]);

    await providerSays(FAILER, wamid, "delivered");
    await providerSays(FAILER, wamid, "read");
    expect((await h.messageRow(row.id)).status).toBe("failed");
    expect((await h.messageRow(row.id)).failure).toEqual(failed.failure);
    expect((await statusEvents(row.id)).map((e) => e.status)).toEqual(["sent", "failed"]);
  });
});
