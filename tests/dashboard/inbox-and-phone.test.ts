import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { PAIR_INTERVAL_SECONDS } from "@/lib/domain/messages/pacing";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { addOperator, dash, type Operator } from "./support";

let h: Harness;
let testers = 0;

beforeAll(async () => {
  h = await startHarness({ statusDelaysMs: { sent: 5, delivered: 10, read: 15 } });
});
afterAll(() => h.close());

interface Scene {
  acme: Seeded;
  dev: Operator;
  base: string;
  /** The tester's phone number: one per scene, so scenes never share a sandbox participant. */
  tester: string;
}

/** A project of its own with a developer operator, and a tester number nobody has used. */
async function scene(orgName = "Acme"): Promise<Scene> {
  const acme = await h.app.seed({ orgName });
  const dev = await addOperator(h.app, acme, "developer");
  const tester = `+1555${String(Date.now()).slice(-5)}${String(++testers).padStart(2, "0")}`;
  return { acme, dev, base: `/projects/${acme.projectId}`, tester };
}

async function actAsCustomer(as: Operator, projectBase: string, from: string, body: Record<string, unknown>) {
  return dash(h.app, "POST", `${projectBase}/sandbox/customer-messages`, { as, body: { channel_id: SANDBOX_CHANNEL_ID, from, ...body } });
}

/** The scene's tester joins its project through the phone and says hello: the conversation's id. */
async function joinedConversation({ acme, dev, base, tester }: Scene): Promise<string> {
  const project = await dash(h.app, "GET", `${base}/projects/${acme.projectId}`, { as: dev });
  expect((await actAsCustomer(dev, base, tester, { type: "text", text: `join ${project.body.join_code}`, name: "Ana" })).status).toBe(200);
  await h.settle(20);
  expect((await actAsCustomer(dev, base, tester, { type: "text", text: "Hello from the phone" })).status).toBe(200);
  await h.settle(20);
  const list = await dash(h.app, "GET", `${base}/conversations`, { as: dev });
  expect(list.body.data).toHaveLength(1);
  return list.body.data[0].id;
}

describe("the sandbox phone and the inbox, end to end through the dashboard", () => {
  it("a customer joins and writes through the phone; the inbox lists the conversation", async () => {
    const { acme, dev, base, tester } = await scene();
    const project = await dash(h.app, "GET", `${base}/projects/${acme.projectId}`, { as: dev });
    const join = await actAsCustomer(dev, base, tester, { type: "text", text: `join ${project.body.join_code}`, name: "Ana" });
    expect(join.status).toBe(200);
    expect(join.body).toMatchObject({ object: "simulated_customer_message", webhook_status: 200 });
    await h.settle(20);
    expect((await actAsCustomer(dev, base, tester, { type: "text", text: "Hello from the phone" })).status).toBe(200);
    await actAsCustomer(dev, base, tester, { type: "location", location: { latitude: 52.52, longitude: 13.405, name: "Berlin" } });
    await h.settle(20);

    const list = await dash(h.app, "GET", `${base}/conversations`, { as: dev });
    expect(list.body.data).toHaveLength(1);
    const conversationId = list.body.data[0].id;
    const thread = await dash(h.app, "GET", `${base}/conversations/${conversationId}/messages`, { as: dev });
    const types = thread.body.data.map((m: { type: string }) => m.type);
    expect(types).toContain("location");
    expect(JSON.stringify(thread.body.data)).toContain("Hello from the phone");
  });

  it("operator replies are internal sends: two at once both succeed, the second waits for its pair slot", async () => {
    const current = await scene();
    const { acme, dev, base, tester } = current;
    const conversationId = await joinedConversation(current);
    const send = (text: string) =>
      dash(h.app, "POST", `${base}/messages`, { as: dev, body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text } });
    const first = await send("First reply");
    const second = await send("Second reply");
    expect([first.status, second.status]).toEqual([200, 200]);
    await h.settle(20);
    expect((await h.messageRow(first.body.id)).status).not.toBe("queued");
    expect((await h.messageRow(second.body.id)).status).toBe("queued");

    // The API key path for the same pair is still refused with the spec's 429 meanwhile.
    const api = await h.app.call("POST", "/messages", {
      key: acme.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "From the API" },
    });
    expect(api.status).toBe(429);
    expect(api.body.error).toBe("message_pair_rate_limit");

    await new Promise((r) => setTimeout(r, PAIR_INTERVAL_SECONDS * 1000 + 500));
    await h.settle(30);
    const [row] = await h.app.db.select().from(messages).where(eq(messages.id, second.body.id));
    expect(row!.platformMessageId).not.toBeNull();
    expect(row!.status).not.toBe("failed");

    const inbox = await dash(h.app, "GET", `${base}/sandbox/inbox?channel_id=${SANDBOX_CHANNEL_ID}&from=${encodeURIComponent(tester)}`, { as: dev });
    const texts = inbox.body.data.map((m: { text: string | null }) => m.text);
    expect(texts).toEqual(expect.arrayContaining(["First reply", "Second reply"]));
  }, 20_000);

  it("operators may still reply while handoff is on (automated API replies may not)", async () => {
    const current = await scene();
    const { acme, dev, base } = current;
    const conversationId = await joinedConversation(current);
    const on = await dash(h.app, "POST", `${base}/conversations/${conversationId}/handoff`, { as: dev, body: { enabled: true, reason: "e2e" } });
    expect(on.status).toBe(200);
    await new Promise((r) => setTimeout(r, PAIR_INTERVAL_SECONDS * 1000));
    const api = await h.app.call("POST", "/messages", {
      key: acme.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "bot" },
    });
    expect(api.body.error).toBe("ai_handoff_active");
    h.app.clock.advance(60_000);
    const human = await dash(h.app, "POST", `${base}/messages`, {
      as: dev,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "A human here" },
    });
    expect(human.status).toBe(200);
    // The inbox sorts by last_message_at: a reply moves the conversation too, not only customer messages.
    const conversation = await dash(h.app, "GET", `${base}/conversations/${conversationId}`, { as: dev });
    expect(conversation.body.last_message_at).toBe(h.app.clock.now().toISOString());
  }, 15_000);

  it("another project's operators can neither speak as nor read this project's tester", async () => {
    const current = await scene();
    await joinedConversation(current);
    const rival = await h.app.seed({ orgName: "Rival" });
    const rivalOp = await addOperator(h.app, rival, "owner");
    const rivalBase = `/projects/${rival.projectId}`;
    const speak = await actAsCustomer(rivalOp, rivalBase, current.tester, { type: "text", text: "impersonation" });
    expect(speak.status).toBe(409);
    const read = await dash(h.app, "GET", `${rivalBase}/sandbox/inbox?channel_id=${SANDBOX_CHANNEL_ID}&from=${encodeURIComponent(current.tester)}`, {
      as: rivalOp,
    });
    expect(read.status).toBe(409);
  });

  it("viewers cannot act as a customer; bad actions get field errors", async () => {
    const { acme, dev, base, tester } = await scene();
    const viewer = await addOperator(h.app, acme, "viewer");
    const refused = await actAsCustomer(viewer, base, tester, { type: "text", text: "x" });
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "messages:send" });
    const missing = await actAsCustomer(dev, base, tester, { type: "text" });
    expect(missing.status).toBe(400);
    expect(missing.body.issues.text).toBeDefined();
    const unknownChannel = await dash(h.app, "POST", `${base}/sandbox/customer-messages`, {
      as: dev,
      body: { channel_id: "ch_nope", from: tester, type: "text", text: "x" },
    });
    expect(unknownChannel.status).toBe(404);
  });
});
