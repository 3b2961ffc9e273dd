import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "@/lib/ports/provider/app-secret";
import { createProviderPort } from "@/lib/ports/provider";
import { ProviderError, type ProviderChannel, type ProviderPlatform } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { serveSimulator, startReceiver, type Receiver, type ReceivedRequest, type RunningServer } from "./http-helpers";

/**
 * End to end over real HTTP: the adapters talk to the simulator served by node:http, and the
 * simulator's signed webhooks land on a receiver server.
 */
const SECRET = (platform: ProviderPlatform) => `test-secret-${platform}`;
const A: ProviderChannel = { platform: "PLATFORM_A", senderId: "106540352242922", accessToken: "EAAG-test" };
const B: ProviderChannel = { platform: "PLATFORM_B", senderId: "17841400000000001", accessToken: "IGQ-test" };
const C: ProviderChannel = { platform: "PLATFORM_C", senderId: "102030405060708", accessToken: "EAAP-test" };

let receiver: Receiver;
let server: RunningServer;
let simulator: Simulator;
let clockOffsetMs = 0;
let logs: string[] = [];

function port() {
  return createProviderPort({ graphUrl: `${server.url}/api/simulator/graph` });
}

async function customer(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/simulator/customer/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function sendError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected the send to fail");
}

function signedFor(platform: ProviderPlatform, request: ReceivedRequest): boolean {
  return verifySignature(SECRET(platform), request.raw, String(request.headers["x-hub-signature-256"] ?? ""));
}

type Json = Record<string, unknown>;
const value = (r: ReceivedRequest): Json => {
  const entry = ((r.json as Json).entry as Json[])[0]!;
  return (entry.changes as Json[])[0]!.value as Json;
};
const messaging = (r: ReceivedRequest): Json => (((r.json as Json).entry as Json[])[0]!.messaging as Json[])[0]!;

function statusesOf(id: string) {
  return (r: ReceivedRequest) =>
    r.path === "/api/providers/platform-a/webhook" && Array.isArray(value(r).statuses) && (value(r).statuses as Json[]).some((s) => s.id === id);
}

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({
    callbackBaseUrl: receiver.url,
    appSecret: SECRET,
    statusDelaysMs: { sent: 20, delivered: 40, read: 60 },
    now: () => new Date(Date.now() + clockOffsetMs),
    log: (message) => logs.push(message),
    // A customer's message the receiver refuses is answered after this wait (retried on in the background).
    customerWaitMs: 1_500,
  });
  server = await serveSimulator(simulator);
});

afterEach(() => {
  simulator.reset();
  receiver.received.length = 0;
  receiver.status = 200;
  clockOffsetMs = 0;
  logs = [];
});

afterAll(async () => {
  simulator.reset();
  await server.close();
  await receiver.close();
});

describe("PLATFORM_A through the simulator", () => {
  it("sends after a customer message, answers a wamid, paces the pair and reports sent/delivered/read in order, signed", async () => {
    const inbound = await customer({ platform: "PLATFORM_A", sender_id: A.senderId, from: "15551230001", name: "Ada", type: "text", text: "hi" });
    expect(inbound.status).toBe(200);
    expect(inbound.json.delivered_status).toBe(200);
    expect(inbound.json.message_id).toMatch(/^wamid\.[A-Za-z0-9+/]+=*$/);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.path).toBe("/api/providers/platform-a/webhook");
    expect(signedFor("PLATFORM_A", receiver.received[0]!)).toBe(true);

    const { platformMessageId } = await port().send(A, "15551230001", { content: { kind: "text", text: "Hello Ada" } });
    expect(platformMessageId).toMatch(/^wamid\.HBg[A-Za-z0-9+/]+=*$/);

    const second = await sendError(port().send(A, "15551230001", { content: { kind: "text", text: "Again" } }));
    expect(second.failure.code).toBe(131056);
    expect(second.failure.http_status).toBe(400);
    expect(second.failure.fbtrace_id).toEqual(expect.any(String));
    expect(second.retryable).toBe(true);

    const callbacks = await receiver.waitFor(statusesOf(platformMessageId), 3);
    const statuses = callbacks.map((r) => (value(r).statuses as Json[])[0]!);
    expect(statuses.map((s) => s.status)).toEqual(["sent", "delivered", "read"]);
    for (const r of callbacks) {
      expect(r.headers["content-type"]).toMatch(/application\/json/);
      expect(signedFor("PLATFORM_A", r)).toBe(true);
      expect(verifySignature("wrong", r.raw, String(r.headers["x-hub-signature-256"]))).toBe(false);
      expect(r.json).toMatchObject({
        object: "whatsapp_business_account",
        entry: [{ changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { phone_number_id: A.senderId } } }] }],
      });
    }
    expect(statuses[0]).toMatchObject({
      id: platformMessageId,
      recipient_id: "15551230001",
      timestamp: expect.stringMatching(/^\d{10}$/),
      conversation: { id: expect.any(String), origin: { type: "service" } },
      pricing: { billable: false, pricing_model: "PMP", category: "service" },
    });
    expect(statuses[2]).not.toHaveProperty("pricing");
  });

  it("refuses a customer with no inbound message in 24 h (131047, final) unless it is a template", async () => {
    const never = await sendError(port().send(A, "15559990001", { content: { kind: "text", text: "Hello?" } }));
    expect(never.failure).toMatchObject({ provider: "provider", code: 131047, http_status: 400, type: "OAuthException" });
    expect(never.retryable).toBe(false);

    await customer({ platform: "PLATFORM_A", sender_id: A.senderId, from: "15559990002", type: "text", text: "hi" });
    clockOffsetMs = 25 * 60 * 60 * 1000;
    const stale = await sendError(port().send(A, "15559990002", { content: { kind: "text", text: "Still there?" } }));
    expect(stale.failure.code).toBe(131047);
    expect(stale.retryable).toBe(false);

    const template = await port().send(A, "15559990002", {
      content: { kind: "template", template: { name: "hello_world", language: "en_US" } },
    });
    expect(template.platformMessageId).toMatch(/^wamid\./);
  });

  it("treats numbers ending in 0000 as undeliverable (131026, final)", async () => {
    await customer({ platform: "PLATFORM_A", sender_id: A.senderId, from: "15551110000", type: "text", text: "hi" });
    const error = await sendError(port().send(A, "15551110000", { content: { kind: "text", text: "x" } }));
    expect(error.failure.code).toBe(131026);
    expect(error.retryable).toBe(false);
  });

  it("answers 190 without a token and 100 for a body the provider would refuse", async () => {
    const graph = `${server.url}/api/simulator/graph/${A.senderId}/messages`;
    const noToken = await fetch(graph, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(noToken.status).toBe(401);
    expect(((await noToken.json()) as { error: Json }).error).toMatchObject({ code: 190, type: "OAuthException", fbtrace_id: expect.any(String) });

    const empty = await sendError(port().send({ ...A, accessToken: "" }, "15551230001", { content: { kind: "text", text: "x" } }));
    expect(empty.failure.code).toBe(190);
    expect(empty.retryable).toBe(false);

    const post = (body: unknown) =>
      fetch(graph, { method: "POST", headers: { Authorization: "Bearer t", "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const base = { messaging_product: "whatsapp", to: "15551230001" };
    const invalid = [
      { ...base, type: "text", text: { body: "x".repeat(4097) } },
      { ...base, type: "text", text: { body: "x" }, image: { id: "1" } },
      { ...base, type: "image", image: { link: "http://insecure.example/a.png" } },
      { ...base, type: "image", image: { id: "1", caption: "c".repeat(1025) } },
      { ...base, to: "not-a-number", type: "text", text: { body: "x" } },
      { messaging_product: "sms", to: "15551230001", type: "text", text: { body: "x" } },
      {
        ...base,
        type: "interactive",
        interactive: {
          type: "button",
          body: { text: "b" },
          action: { buttons: ["1", "2", "3", "4"].map((id) => ({ type: "reply", reply: { id, title: id } })) },
        },
      },
      {
        ...base,
        type: "interactive",
        interactive: { type: "button", body: { text: "b" }, action: { buttons: [{ type: "reply", reply: { id: "1", title: "x".repeat(21) } }] } },
      },
      {
        ...base,
        type: "interactive",
        interactive: {
          type: "list",
          body: { text: "b" },
          action: { button: "Pick", sections: [{ title: "s", rows: Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `R${i}` })) }] },
        },
      },
      {
        ...base,
        type: "interactive",
        interactive: {
          type: "cta_url",
          body: { text: "b" },
          action: { name: "cta_url", parameters: { display_text: "x".repeat(21), url: "https://a.example" } },
        },
      },
    ];
    for (const body of invalid) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      const error = ((await response.json()) as { error: Json }).error;
      expect(error).toMatchObject({ code: 100, type: "OAuthException", error_data: { messaging_product: "whatsapp", details: expect.any(String) } });
    }
  });

  it("a failing webhook endpoint is retried, and the simulator carries on", async () => {
    await customer({ platform: "PLATFORM_A", sender_id: A.senderId, from: "15551230003", type: "text", text: "hi" });
    receiver.status = 500;
    const { platformMessageId } = await port().send(A, "15551230003", { content: { kind: "text", text: "x" } });
    const attempts = await receiver.waitFor(statusesOf(platformMessageId), 3, 5000);
    expect(attempts.every((r) => (value(r).statuses as Json[])[0]!.status === "sent")).toBe(true);
    const failing = await customer({ platform: "PLATFORM_A", sender_id: A.senderId, from: "15551230003", type: "text", text: "again" });
    expect(failing.status).toBe(504);
    expect(failing.json).toMatchObject({ delivered_status: 500, retrying: true });
  });

  it("lists the business messages of a customer for the sandbox phone, oldest first", async () => {
    await customer({ platform: "PLATFORM_A", sender_id: A.senderId, from: "15551230004", type: "text", text: "hi" });
    const first = await port().send(A, "15551230004", { content: { kind: "text", text: "one" } });
    clockOffsetMs = 7_000;
    const second = await port().send(A, "15551230004", {
      content: { kind: "interactive", interactive: { type: "button", body: "two", buttons: [{ id: "y", title: "Yes" }] } },
    });
    const inbox = await fetch(`${server.url}/api/simulator/customer/inbox?sender_id=${A.senderId}&address=%2B15551230004`);
    const data = ((await inbox.json()) as { data: Json[] }).data;
    expect(data.map((m) => m.id)).toEqual([first.platformMessageId, second.platformMessageId]);
    expect(data.map((m) => m.text)).toEqual(["one", "two"]);
    expect(data[1]).toMatchObject({ type: "interactive", platform: "PLATFORM_A", to: "15551230004", body: { type: "interactive" } });
  });

  it("holds an inbox read with wait= until the inbox has the business message (a send is queued: README's last step)", async () => {
    await customer({ platform: "PLATFORM_A", sender_id: A.senderId, from: "15551230005", type: "text", text: "hi" });
    const inbox = (query: string) => fetch(`${server.url}/api/simulator/customer/inbox?sender_id=${A.senderId}&address=15551230005${query}`);
    expect(((await (await inbox("")).json()) as { data: Json[] }).data).toEqual([]);
    const reading = inbox("&wait=5");
    await new Promise((r) => setTimeout(r, 300));
    await port().send(A, "15551230005", { content: { kind: "text", text: "later" } });
    expect(((await (await reading).json()) as { data: Json[] }).data.map((m) => m.text)).toEqual(["later"]);
    expect((await inbox("&wait=31")).status).toBe(400);
  });
});

describe("PLATFORM_B and PLATFORM_C through the simulator", () => {
  it("PLATFORM_C: m_ mids, then echo, delivery and read webhooks in order", async () => {
    const inbound = await customer({ platform: "PLATFORM_C", sender_id: C.senderId, from: "24000000000001", type: "text", text: "hey" });
    expect(inbound.json.message_id).toMatch(/^m_/);
    const { platformMessageId } = await port().send(C, "24000000000001", { content: { kind: "text", text: "Hello" } });
    expect(platformMessageId).toMatch(/^m_[A-Za-z0-9_-]+$/);

    const isCallback = (r: ReceivedRequest) => {
      const item = messaging(r);
      return (item.message as Json | undefined)?.is_echo === true || "delivery" in item || "read" in item;
    };
    const callbacks = await receiver.waitFor((r) => r.path === "/api/providers/platform-c/webhook" && isCallback(r), 3);
    const items = callbacks.map(messaging);
    expect(items[0]).toMatchObject({
      sender: { id: C.senderId },
      recipient: { id: "24000000000001" },
      message: { mid: platformMessageId, is_echo: true, text: "Hello" },
    });
    expect(items[1]).toMatchObject({
      sender: { id: "24000000000001" },
      recipient: { id: C.senderId },
      delivery: { mids: [platformMessageId], watermark: expect.any(Number) },
    });
    expect(items[2]).toMatchObject({ read: { watermark: expect.any(Number) } });
    for (const r of callbacks) {
      expect(signedFor("PLATFORM_C", r)).toBe(true);
      expect(r.json).toMatchObject({ object: "page", entry: [{ id: C.senderId, time: expect.any(Number) }] });
    }

    const paced = await sendError(port().send(C, "24000000000001", { content: { kind: "text", text: "Again" } }));
    expect(paced.failure.code).toBe(613);
    expect(paced.retryable).toBe(true);
  });

  it("PLATFORM_B: instagram mids, echo then read naming the mid; reactions answer without a mid", async () => {
    await customer({ platform: "PLATFORM_B", sender_id: B.senderId, from: "9100000000000001", type: "text", text: "hey" });
    const { platformMessageId } = await port().send(B, "9100000000000001", {
      content: { kind: "media", media: { type: "image", link: "https://cdn.example/a.png" } },
    });
    expect(platformMessageId).toMatch(/^aWdf[A-Za-z0-9_-]+$/);
    const callbacks = await receiver.waitFor(
      (r) => r.path === "/api/providers/platform-b/webhook" && ((messaging(r).message as Json | undefined)?.is_echo === true || "read" in messaging(r)),
      2,
    );
    expect(callbacks.map(messaging)).toMatchObject([
      { message: { mid: platformMessageId, is_echo: true, attachments: [{ type: "image", payload: { url: "https://cdn.example/a.png" } }] } },
      { read: { mid: platformMessageId } },
    ]);
    expect(callbacks.every((r) => (r.json as Json).object === "instagram" && signedFor("PLATFORM_B", r))).toBe(true);

    const reaction = await port().send(B, "9100000000000001", { content: { kind: "reaction", reaction: { message_id: "aWdfOriginal", emoji: "❤️" } } });
    expect(reaction.platformMessageId).toMatch(/^reaction\.aWdfOriginal\.\d+$/);
  });

  it("outside the window the Send API refuses with #10 (final)", async () => {
    const error = await sendError(port().send(C, "24000000000099", { content: { kind: "text", text: "x" } }));
    expect(error.failure).toMatchObject({ code: 10, subcode: 2018278, http_status: 400 });
    expect(error.retryable).toBe(false);
  });

  it("a Send API body the provider would refuse gets code 100", async () => {
    await customer({ platform: "PLATFORM_C", sender_id: C.senderId, from: "24000000000002", type: "text", text: "hey" });
    const response = await fetch(`${server.url}/api/simulator/graph/${C.senderId}/messages`, {
      method: "POST",
      headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
      body: JSON.stringify({
        recipient: { id: "24000000000002" },
        messaging_type: "RESPONSE",
        message: { text: "x", quick_replies: Array.from({ length: 14 }, (_, i) => ({ content_type: "text", title: `o${i}`, payload: `p${i}` })) },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: Json }).error).toMatchObject({ code: 100, type: "OAuthException" });
  });
});
