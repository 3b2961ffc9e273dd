import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { normalizeWebhook } from "@/lib/domain/ingest/normalize";
import { STATUS_RETRY_LIMIT } from "@/lib/domain/ingest/process";
import { statusRetryJob } from "@/lib/domain/ingest/jobs";
import { runJob } from "@/lib/jobs/define";
import { servicesOf } from "@/lib/server/runtime";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { FIXTURE_A, adapted, deliver, envelopeA, joinSandbox, receivedFor, startHarness, textA, type Harness } from "./harness";

/**
 * message.status from provider statuses (forward only, recipient ids, retried when the status outruns
 * the send job) and call.event from "calls" payloads.
 */
let h: Harness;
let acme: Seeded;
let beta: Seeded;
let betaChannel = "";
const TESTER = "15553330001";
const SHEENA = "16505551234";
/** The outbound wamid the status fixtures name. */
const FIXTURE_WAMID = "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBRCSVowMDAwMDAwMDAwMDAwMDAwQwA=";
type Payload = Record<string, any>;

/** A project with a dedicated PLATFORM_A channel on `phoneNumberId`, where Sheena has written first. */
async function dedicated(orgName: string, phoneNumberId: string): Promise<{ seeded: Seeded; channelId: string }> {
  const seeded = await h.app.seed({ orgName });
  const res = await h.app.call("POST", "/channels", {
    key: seeded.key,
    body: {
      platform: "PLATFORM_A",
      phone_number: FIXTURE_A.phoneNumber,
      credentials: { phone_number_id: phoneNumberId, business_account_id: FIXTURE_A.waba, access_token: "t" },
    },
  });
  expect(res.status).toBe(200);
  // Sheena writes first: her contact and conversation exist on the dedicated channel.
  await deliver(h, "platform-a", textA(phoneNumberId, SHEENA, "wamid.SHEENA-HELLO", "hello"));
  return { seeded, channelId: res.body.id };
}

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  await joinSandbox(h, acme.projectId, TESTER);
  ({ seeded: beta, channelId: betaChannel } = await dedicated("Beta", FIXTURE_A.phoneNumberId));
});
afterAll(() => h?.close());

const flush = () => h.app.runtime.ports.queue.drain();

/**
 * An outbound message as POST /messages stores it (queued), to a customer with a conversation; with a
 * provider id when the send job has stored one already.
 */
async function outbound(projectId: string, channelId: string, recipient: string, platformMessageId: string | null): Promise<string> {
  const [inbound] = await h.app.db.select().from(messages).where(eq(messages.channelId, channelId)).limit(1);
  const id = newId("message", h.app.clock.now().getTime());
  const now = h.app.clock.now();
  await h.app.db.insert(messages).values({
    id,
    projectId,
    conversationId: inbound!.conversationId,
    contactId: inbound!.contactId,
    channelId,
    direction: "outbound",
    type: "text",
    status: "queued",
    content: "Hi!",
    body: { kind: "text", text: "Hi!" },
    recipient,
    platformMessageId,
    timestamp: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

async function statusesOf(projectId: string, messageId: string): Promise<Payload[]> {
  return (await h.eventsOf(projectId, "message.status")).map((e) => e.payload as Payload).filter((p) => p.message_id === messageId);
}

describe("message.status", () => {
  it("a reply through the sandbox: the simulator's signed sent/delivered/read move it forward, each one event", async () => {
    const [conversation] = (await h.app.call("GET", "/conversations", { key: acme.key })).body.data;
    const res = await h.app.call("POST", "/messages", {
      key: acme.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversation.id, text: "Hi!" },
    });
    expect(res.status).toBe(200);
    await h.settle(150);
    const row = await h.messageRow(res.body.id);
    expect(row.status).toBe("read");
    const statuses = await statusesOf(acme.projectId, res.body.id);
    expect(statuses.map((s) => s.status)).toEqual(["sent", "delivered", "read"]);
    for (const s of statuses) {
      expect(s).toMatchObject({
        message_id: res.body.id,
        platform_message_id: row.platformMessageId,
        conversation_id: conversation.id,
        channel_id: SANDBOX_CHANNEL_ID,
        recipient_id: TESTER,
        recipient_user_id: null,
      });
    }
    expect(statuses[0]).toMatchObject({ pricing: { billable: false }, conversation: { origin: { type: "service" } } });
    const rows = (await h.eventsOf(acme.projectId, "message.status")).filter((e) => (e.payload as Payload).message_id === res.body.id);
    expect(rows.every((e) => e.deliver && e.route === "external")).toBe(true);
  });

  it("the provider's status payloads: forward only, recipient_id and recipient_user_id, retries and late statuses change nothing", async () => {
    const id = await outbound(beta.projectId, betaChannel, SHEENA, FIXTURE_WAMID);
    await deliver(h, "platform-a", adapted("platform-a-status-sent"));
    expect((await h.messageRow(id)).status).toBe("sent");
    await deliver(h, "platform-a", adapted("platform-a-status-read"));
    expect((await h.messageRow(id)).status).toBe("read");
    // Delivered arrives after read, a retry of read, a failure after read: nothing moves back.
    await deliver(h, "platform-a", adapted("platform-a-status-delivered"));
    await deliver(h, "platform-a", adapted("platform-a-status-read"));
    await deliver(h, "platform-a", adapted("platform-a-status-failed"));
    expect((await h.messageRow(id)).status).toBe("read");
    const statuses = await statusesOf(beta.projectId, id);
    expect(statuses.map((s) => s.status)).toEqual(["sent", "read"]);
    expect(statuses[0]).toMatchObject({
      recipient_id: SHEENA,
      recipient_user_id: "US.13491208655302741918",
      platform_message_id: FIXTURE_WAMID,
      channel_id: betaChannel,
      timestamp: new Date(1749416683 * 1000).toISOString(),
    });
    expect(statuses[1]).toMatchObject({ status: "read", recipient_id: SHEENA, recipient_user_id: "US.13491208655302741918" });
  });

  it("failed carries the provider's failure; a username-only recipient has recipient_user_id only", async () => {
    const failedId = await outbound(beta.projectId, betaChannel, SHEENA, "wamid.FAILS-0001");
    await deliver(h, "platform-a", adapted("platform-a-status-failed", { [FIXTURE_WAMID]: "wamid.FAILS-0001" }));
    const failed = await h.messageRow(failedId);
    expect(failed.status).toBe("failed");
    expect(failed.failure).toMatchObject({ code: 131047, title: "Re-engagement message" });
    const [event] = await statusesOf(beta.projectId, failedId);
    expect(event).toMatchObject({ status: "failed", recipient_id: SHEENA, failure: { code: 131047 }, errors: [{ code: 131047 }] });

    const bsuid = "wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFEJJWjAwMDAwMDAwMDAwMDAwMDBEAA==";
    const userId = await outbound(beta.projectId, betaChannel, "BR.1502576394655843", bsuid);
    await deliver(h, "platform-a", adapted("platform-a-status-bsuid"));
    expect((await h.messageRow(userId)).status).toBe("delivered");
    expect((await statusesOf(beta.projectId, userId))[0]).toMatchObject({ status: "delivered", recipient_id: null, recipient_user_id: "BR.1502576394655843" });
  });

  it("a status that outruns the send job is retried (STATUS_RETRY_JOB) and applied once the provider id is stored", async () => {
    const pending = "wamid.OUTRUNS-SEND-0001";
    const id = await outbound(acme.projectId, SANDBOX_CHANNEL_ID, TESTER, null);
    const status = (name: "sent" | "delivered", ts: number) =>
      envelopeA(SANDBOX_PHONE_NUMBER_ID, { statuses: [{ id: pending, status: name, timestamp: String(ts), recipient_id: TESTER }] });
    const at = Math.floor(Date.now() / 1000);
    await deliver(h, "platform-a", status("sent", at));
    await deliver(h, "platform-a", status("delivered", at + 1));
    expect((await h.messageRow(id)).status).toBe("queued");
    expect(await statusesOf(acme.projectId, id)).toEqual([]);

    // The send job stores the provider's id.
    await h.app.db.update(messages).set({ platformMessageId: pending }).where(eq(messages.id, id));
    await new Promise((r) => setTimeout(r, 1100));
    await flush();
    expect((await h.messageRow(id)).status).toBe("delivered");
    const statuses = await statusesOf(acme.projectId, id);
    expect(statuses.some((s) => s.status === "delivered")).toBe(true);
    expect(new Set(statuses.map((s) => s.status)).size).toBe(statuses.length);
  });

  it("a status still unmatched at its first retry keeps being retried (not dropped after one attempt)", async () => {
    const pending = "wamid.OUTRUNS-SEND-0002";
    const id = await outbound(acme.projectId, SANDBOX_CHANNEL_ID, TESTER, null);
    await deliver(
      h,
      "platform-a",
      envelopeA(SANDBOX_PHONE_NUMBER_ID, {
        statuses: [{ id: pending, status: "read", timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: TESTER }],
      }),
    );
    await new Promise((r) => setTimeout(r, 1100));
    await flush(); // first retry: still nothing stored under that id
    expect((await h.messageRow(id)).status).toBe("queued");
    await h.app.db.update(messages).set({ platformMessageId: pending }).where(eq(messages.id, id));
    for (let i = 0; i < 20 && (await h.messageRow(id)).status !== "read"; i++) {
      await new Promise((r) => setTimeout(r, 300));
      await flush();
    }
    expect((await h.messageRow(id)).status).toBe("read");
    expect((await statusesOf(acme.projectId, id)).map((s) => s.status)).toEqual(["read"]);
  });

  it("the retry job: pending events throw while attempts remain, the last attempt settles them", async () => {
    const status = normalizeWebhook(
      "PLATFORM_A",
      envelopeA(SANDBOX_PHONE_NUMBER_ID, { statuses: [{ id: "wamid.NEVER-STORED", status: "delivered", timestamp: "1749416684", recipient_id: TESTER }] }),
    )[0]!;
    // retryLimit 0 is what a job fetched without metadata reports: the defined limit applies (runJob).
    const attempt = (retryCount: number) =>
      runJob(statusRetryJob, servicesOf(h.app.runtime), { event: status }, { id: `retry-${retryCount}`, retryCount, retryLimit: 0 });
    await expect(attempt(0)).rejects.toThrow(/retrying/);
    await expect(attempt(STATUS_RETRY_LIMIT - 1)).rejects.toThrow();
    await expect(attempt(STATUS_RETRY_LIMIT)).resolves.toBeUndefined();
  });

  it("message.status is still delivered while the conversation is handed off to a human", async () => {
    const [conversation] = (await h.app.call("GET", "/conversations", { key: acme.key })).body.data;
    const on = await h.app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: true, reason: "angry" } });
    expect(on.status).toBe(200);
    const id = await outbound(acme.projectId, SANDBOX_CHANNEL_ID, TESTER, "wamid.HANDOFF-STATUS");
    await deliver(
      h,
      "platform-a",
      envelopeA(SANDBOX_PHONE_NUMBER_ID, {
        statuses: [{ id: "wamid.HANDOFF-STATUS", status: "delivered", timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: TESTER }],
      }),
    );
    const rows = (await h.eventsOf(acme.projectId, "message.status")).filter((e) => (e.payload as Payload).message_id === id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ deliver: true });
    // message.received during handoff is stored, not delivered.
    await deliver(h, "platform-a", textA(SANDBOX_PHONE_NUMBER_ID, TESTER, "wamid.DURING-HANDOFF", "hello?"));
    const received = (await h.eventsOf(acme.projectId, "message.received")).filter((e) => (e.payload as Payload).messages[0].id === "wamid.DURING-HANDOFF");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ deliver: false, route: "handoff" });
    expect(received[0]!.payload).toMatchObject({ ai_handoff: { status: "HUMAN_ACTIVE", reason: "angry", is_on_hold: true } });
    expect((received[0]!.payload as Payload).ai_handoff.handoff_at).toEqual(expect.any(String));
    await h.app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: false } });
  });
});

describe("call.event", () => {
  /** Each test's own project and dedicated channel: the tests count every call.event of the project. */
  let caller: Seeded;
  let callerChannel: string;
  let callerPhoneNumberId: string;
  let serial = 0;
  beforeEach(async () => {
    serial += 1;
    callerPhoneNumberId = `${FIXTURE_A.phoneNumberId}${serial}`;
    ({ seeded: caller, channelId: callerChannel } = await dedicated(`Caller ${serial}`, callerPhoneNumberId));
  });
  /** A provider fixture (tests/fixtures/provider) addressed to the test's channel. */
  const toCaller = (name: string) => adapted(name, { [FIXTURE_A.phoneNumberId]: callerPhoneNumberId });
  const callItem = (name: string) => toCaller(name).entry[0].changes[0].value[name === "platform-a-call-status" ? "statuses" : "calls"][0] as Payload;
  const callEvents = async (projectId: string) =>
    (await h.eventsOf(projectId, "call.event")).map((e): Payload => ({ ...(e.payload as Payload), _deliver: e.deliver }));

  it("a calls item: kind call, the original item (SDP included) in payload.call, the customer's contact; twice is one event", async () => {
    await deliver(h, "platform-a", toCaller("platform-a-call-connect"));
    await deliver(h, "platform-a", toCaller("platform-a-call-connect"));
    const events = await callEvents(caller.projectId);
    expect(events).toHaveLength(1);
    const [sheena] = await receivedFor(h, caller.projectId, "wamid.SHEENA-HELLO");
    expect(events[0]).toMatchObject({
      kind: "call",
      event: "connect",
      call_id: callItem("platform-a-call-connect").id,
      channel_id: callerChannel,
      contact_id: sheena!.contact_id,
      _deliver: true,
    });
    expect(events[0]!.call).toEqual(callItem("platform-a-call-connect"));
    expect(events[0]!.call.session.sdp).toContain("m=audio 9 UDP/TLS/RTP/SAVPF 111");
    expect(events[0]!.timestamp).toBe(new Date(1749416783 * 1000).toISOString());

    await deliver(h, "platform-a", toCaller("platform-a-call-terminate"));
    const after = await callEvents(caller.projectId);
    expect(after.map((e) => e.event)).toEqual(["connect", "terminate"]);
    expect(after[1]!.call).toMatchObject({ status: "COMPLETED", duration: 55 });
  });

  it("a call status item: kind status with the original item; a business-initiated call finds the customer in `to`", async () => {
    await deliver(h, "platform-a", toCaller("platform-a-call-status"));
    await deliver(h, "platform-a", toCaller("platform-a-call-status"));
    const status = (await callEvents(caller.projectId)).filter((e) => e.kind === "status");
    expect(status).toHaveLength(1);
    expect(status[0]).toMatchObject({ event: "RINGING", contact_id: null, call: callItem("platform-a-call-status") });

    const outgoing = {
      id: "wacid.BUSINESS-INITIATED-1",
      from: "15550783881",
      to: SHEENA,
      event: "connect",
      direction: "BUSINESS_INITIATED",
      timestamp: String(Math.floor(Date.now() / 1000)),
      session: { sdp_type: "answer", sdp: "v=0\r\n" },
    };
    await deliver(h, "platform-a", envelopeA(callerPhoneNumberId, { calls: [outgoing] }, "calls"));
    const [sheena] = await receivedFor(h, caller.projectId, "wamid.SHEENA-HELLO");
    const business = (await callEvents(caller.projectId)).find((e) => e.call_id === "wacid.BUSINESS-INITIATED-1");
    expect(business).toMatchObject({ kind: "call", contact_id: sheena!.contact_id, call: outgoing });
  });

  it("sandbox: a participant's call reaches their project; a stranger's goes nowhere", async () => {
    const call = (from: string, id: string) =>
      envelopeA(
        SANDBOX_PHONE_NUMBER_ID,
        { calls: [{ id, from, to: "15550000000", event: "connect", direction: "USER_INITIATED", timestamp: String(Math.floor(Date.now() / 1000)) }] },
        "calls",
      );
    await deliver(h, "platform-a", call(TESTER, "wacid.SANDBOX-1"));
    await deliver(h, "platform-a", call("15553339999", "wacid.SANDBOX-STRANGER"));
    const events = await callEvents(acme.projectId);
    expect(events.map((e) => e.call_id)).toEqual(["wacid.SANDBOX-1"]);
    expect(events[0]).toMatchObject({ _deliver: true, channel_id: SANDBOX_CHANNEL_ID, contact_id: expect.stringMatching(/^ct_/) });
  });
});
