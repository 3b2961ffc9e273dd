import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "@/lib/ports/provider/app-secret";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { startReceiver, type Receiver, type ReceivedRequest } from "../provider/http-helpers";

/**
 * PLATFORM_A status callbacks coalesced per sender (lib/simulator/webhooks.ts): statuses due within
 * the same 50 ms tick go out as one signed envelope whose value.statuses[] holds them all, each
 * message's statuses still in order (sent, delivered, read), never mixing two senders.
 */
const A1 = "106540352242922";
const A2 = "106540352242933";
const SECRET = (platform: ProviderPlatform) => `secret-${platform}`;
type Json = Record<string, unknown>;

let receiver: Receiver;
let simulator: Simulator;
let recipients = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({ callbackBaseUrl: receiver.url, appSecret: SECRET, statusDelaysMs: { sent: 20, delivered: 40, read: 60 }, log: () => {} });
});
afterEach(() => {
  simulator.reset();
  receiver.received.length = 0;
});
afterAll(async () => {
  simulator.reset();
  await receiver.close();
});

async function send(sender: string): Promise<string> {
  const body = {
    messaging_product: "whatsapp",
    to: `1557${String(++recipients).padStart(6, "0")}3`,
    type: "template",
    template: { name: "hi", language: { code: "en" } },
  };
  const path = `/graph/${sender}/messages`;
  const init = { method: "POST", headers: { Authorization: "Bearer t", "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await simulator.handle(new Request(`http://sim.test/api/simulator${path}`, init), path);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: { id: string }[] }).messages[0]!.id;
}

const valueOf = (r: ReceivedRequest): Json => (((r.json as Json).entry as Json[])[0]!.changes as Json[])[0]!.value as Json;
const statusesOf = (r: ReceivedRequest): Json[] => (valueOf(r).statuses as Json[] | undefined) ?? [];
const allStatuses = () => receiver.received.flatMap(statusesOf);

describe("coalesced PLATFORM_A status callbacks", () => {
  it("a burst of sends from one number: far fewer webhooks than statuses, each status once, in order per message, signed", async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, () => send(A1)));
    await receiver.waitFor(() => allStatuses().length >= 120, 1, 5_000);
    await new Promise((r) => setTimeout(r, 100));

    expect(allStatuses()).toHaveLength(120);
    expect(receiver.received.length).toBeLessThan(30);
    expect(receiver.received.some((r) => statusesOf(r).length > 1)).toBe(true);
    for (const r of receiver.received) {
      expect(r.path).toBe("/api/providers/platform-a/webhook");
      expect(verifySignature(SECRET("PLATFORM_A"), r.raw, String(r.headers["x-hub-signature-256"]))).toBe(true);
      expect(valueOf(r)).toMatchObject({ messaging_product: "whatsapp", metadata: { phone_number_id: A1 } });
    }
    // Arrival order across webhooks, then position inside each: a message's statuses come sent, delivered, read.
    const seen = new Map<string, string[]>();
    for (const status of allStatuses()) seen.set(status.id as string, [...(seen.get(status.id as string) ?? []), status.status as string]);
    for (const id of ids) expect(seen.get(id), id).toEqual(["sent", "delivered", "read"]);
    expect(allStatuses().find((s) => s.status === "sent")).toMatchObject({ conversation: { id: expect.any(String) }, pricing: { billable: true } });
  });

  it("two numbers never share an envelope; a lone send's statuses still come one by one", async () => {
    const burst = await Promise.all([...Array.from({ length: 10 }, () => send(A1)), ...Array.from({ length: 10 }, () => send(A2))]);
    await receiver.waitFor(() => allStatuses().length >= 60, 1, 5_000);
    for (const r of receiver.received) {
      const sender = (valueOf(r).metadata as Json).phone_number_id;
      const ownIds = new Set(burst.slice(sender === A1 ? 0 : 10, sender === A1 ? 10 : 20));
      expect(statusesOf(r).every((s) => ownIds.has(s.id as string))).toBe(true);
    }

    await new Promise((r) => setTimeout(r, 100));
    receiver.received.length = 0;
    const lone = await send(A1);
    const callbacks = await receiver.waitFor((r) => statusesOf(r).some((s) => s.id === lone), 3, 3_000);
    expect(callbacks.map((r) => statusesOf(r).map((s) => s.status))).toEqual([["sent"], ["delivered"], ["read"]]);
  });

  it("reset() drops statuses still waiting for their tick", async () => {
    await Promise.all(Array.from({ length: 10 }, () => send(A1)));
    await receiver.waitFor(() => allStatuses().length >= 1, 1, 3_000);
    simulator.reset();
    const after = allStatuses().length;
    await new Promise((r) => setTimeout(r, 200));
    expect(allStatuses().length).toBeLessThanOrEqual(after + 10);
    expect(allStatuses().filter((s) => s.status === "read")).toHaveLength(0);
    expect(simulator.state.statusBatches.size).toBe(0);
  });
});
