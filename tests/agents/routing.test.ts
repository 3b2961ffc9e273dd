import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { respondToMessage } from "@/lib/domain/agents/respond";
import { startHarness, type Harness } from "../messages/support";
import { testerNumber } from "../messages/send-support";
import { say, textsTo } from "../automations/support";
import type { Seeded } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { AGENT_SETTINGS, handoffOf, insertAgent, insertNoopTool, setRouting } from "./thread-support";

/**
 * AGENT routing end to end (docs/spec/decisions.md "Business agents"): a tester on the sandbox writes
 * through the simulated provider, ingest queues agents.respond for a thread the agent owns, and the
 * agent's reply reaches the simulated phone; a handoff keyword passes the thread to the inbox, and
 * thread control moves it between the agent, the service (webhook) and a person.
 */
let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

/** A project on the sandbox with a joined tester, then routed AGENT with an ACTIVE agent (the join itself gets no agent reply). */
async function agentProject(options: { skills?: Record<string, unknown>[]; agent?: boolean } = {}) {
  const seeded = await h.app.seed();
  const tester = testerNumber();
  await h.join(seeded.projectId, tester, "Ana");
  await setRouting(h.app, seeded.projectId, "AGENT");
  const agentId = options.agent === false ? null : await insertAgent(h.app, seeded.projectId, { skills: options.skills ?? [] });
  const contacts = await h.app.call("GET", "/contacts", { key: seeded.key });
  const contactId = (contacts.body.data as { id: string; phone: string | null }[]).find((c) => c.phone?.replace(/\D/g, "") === tester)!.id;
  return { seeded, tester, agentId, contactId };
}

async function lastReceived(seeded: Seeded) {
  const events = await h.eventsOf(seeded.projectId, "message.received");
  const last = events.at(-1)!;
  return { route: last.route, deliver: last.deliver };
}

async function control(seeded: Seeded, body: Record<string, unknown>) {
  const res = await h.app.call("POST", "/business-agents/thread-control", { key: seeded.key, body: { channel_id: SANDBOX_CHANNEL_ID, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("AGENT routing", () => {
  it("a FAQ question gets the answer on the phone; 'human' hands off (inbox, handoff on, no more agent replies); take → webhook; pass back → the agent again", async () => {
    const { seeded, tester, agentId, contactId } = await agentProject();
    await say(h, tester, "What are your opening hours?");
    expect(textsTo(h, tester)).toEqual(["Monday to Friday, 9:00 to 18:00."]);
    expect(await lastReceived(seeded)).toEqual({ route: "agent", deliver: false });

    await say(h, tester, "I want to talk to a human");
    expect(textsTo(h, tester)).toEqual(["Monday to Friday, 9:00 to 18:00.", AGENT_SETTINGS.handoff.message]);
    expect(await control(seeded, { action: "get", contact_id: contactId })).toMatchObject({ owner: "BUSINESS_INBOX", meta_result: { action: "pass" } });
    expect(await handoffOf(h.app, seeded.projectId, contactId)).toMatchObject({ status: "HUMAN_ACTIVE" });
    const conversations = await h.app.call("GET", "/conversations?handoff=HUMAN_ACTIVE", { key: seeded.key });
    expect(conversations.body.data).toHaveLength(1);

    await say(h, tester, "What are your opening hours?");
    expect(textsTo(h, tester)).toHaveLength(2);
    expect(await lastReceived(seeded)).toEqual({ route: "handoff", deliver: false });

    expect(await control(seeded, { action: "take", contact_id: contactId })).toMatchObject({ owner: "SERVICE" });
    expect(await handoffOf(h.app, seeded.projectId, contactId)).toMatchObject({ status: "AI_ACTIVE" });
    await say(h, tester, "Do you ship to Canada?");
    expect(textsTo(h, tester)).toHaveLength(2);
    expect(await lastReceived(seeded)).toEqual({ route: "external", deliver: true });

    expect(await control(seeded, { action: "pass", contact_id: contactId, business_agent_id: agentId })).toMatchObject({ owner: "PROVIDER_AGENT" });
    await say(h, tester, "Do you ship to Canada?");
    expect(textsTo(h, tester)).toEqual(["Monday to Friday, 9:00 to 18:00.", AGENT_SETTINGS.handoff.message, "Yes, in about 5 days."]);
  });

  it("a retried agents.respond sends nothing twice (the reply is keyed by the customer's message)", async () => {
    const { seeded, tester } = await agentProject();
    await say(h, tester, "opening hours?");
    expect(textsTo(h, tester)).toEqual(["Monday to Friday, 9:00 to 18:00."]);
    const inbound = await h.app.db.select().from(messages).where(eq(messages.projectId, seeded.projectId));
    // The customer's question, found by its text: rows come back in no set order (an update can move one).
    const last = inbound.find((m) => m.direction === "inbound" && m.content === "opening hours?")!;
    const again = await respondToMessage(h.app.systemCtx(), last.id);
    expect(again?.reply).toBe("Monday to Friday, 9:00 to 18:00.");
    await h.settle(20);
    expect(textsTo(h, tester)).toHaveLength(1);
    const outbound = (await h.app.db.select().from(messages).where(eq(messages.projectId, seeded.projectId))).filter((m) => m.direction === "outbound");
    expect(outbound.map((m) => m.idempotencyKey)).toEqual([`agent-reply:${last.id}`]);
  });

  it("a skill runs its NOOP tool and replies with the tool's text", async () => {
    const { seeded, tester, agentId } = await agentProject({ skills: [{ name: "track", triggers: ["order"], tool: "order_status" }] });
    await insertNoopTool(h.app, seeded.projectId, agentId!, "order_status", { text: "Your order ships tomorrow." });
    await say(h, tester, "where is my order?");
    expect(textsTo(h, tester)).toEqual(["Your order ships tomorrow."]);
  });

  it("a greeting matches no FAQ entry and, without a fallback_message, gets no reply", async () => {
    const { seeded, tester } = await agentProject();
    await say(h, tester, "hello!");
    expect(textsTo(h, tester)).toEqual([]);
    expect(await lastReceived(seeded)).toEqual({ route: "agent", deliver: false });
  });

  it("AGENT without an ACTIVE agent: the thread follows SERVICE (the webhook), no agent reply", async () => {
    const { seeded, tester } = await agentProject({ agent: false });
    await say(h, tester, "What are your opening hours?");
    expect(textsTo(h, tester)).toEqual([]);
    expect(await lastReceived(seeded)).toEqual({ route: "external", deliver: true });
  });
});

describe("AGENT is the project's; a dedicated channel's own routing overrides it (issue 32 item 5)", () => {
  it("a channel connected under AGENT follows the project and the agent answers there; set to EXTERNAL, the agent stays silent and the webhook gets message.received", async () => {
    const seeded = await h.app.seed();
    const webhook = await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: `${receiver.url}/agent-hooks` } });
    expect(webhook.status).toBe(200);
    await setRouting(h.app, seeded.projectId, "AGENT");
    const phoneNumberId = `pn-agent-${Date.now()}`;
    const connect = await h.app.call("POST", "/channels", {
      key: seeded.key,
      body: {
        platform: "PLATFORM_A",
        display_name: "Own line",
        phone_number: "+15557771234",
        credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-${phoneNumberId}`, access_token: "t" },
      },
    });
    expect(connect.status, JSON.stringify(connect.body)).toBe(200);
    const channelId = connect.body.id as string;
    // AGENT has no channel equivalent: the new channel follows the project (null), and so routes AGENT.
    expect(connect.body.routing_mode).toBeNull();
    await insertAgent(h.app, seeded.projectId, { channelId });
    const customer = testerNumber();
    const write = (text: string) => say(h, customer, { sender_id: phoneNumberId, type: "text", text }, channelId);
    const hooksFor = (text: string) =>
      receiver.received.filter((r) => r.path === "/agent-hooks" && JSON.parse(r.raw).event === "message.received" && r.raw.includes(text));

    await write("What are your opening hours?");
    expect(textsTo(h, customer)).toEqual(["Monday to Friday, 9:00 to 18:00."]);
    expect(await lastReceived(seeded)).toEqual({ route: "agent", deliver: false });
    expect(hooksFor("What are your opening hours?")).toHaveLength(0);

    const patched = await h.app.call("PATCH", `/channels/${channelId}`, { key: seeded.key, body: { routing_mode: "EXTERNAL" } });
    expect(patched.status).toBe(200);
    expect(patched.body.routing_mode).toBe("EXTERNAL");
    await write("Do you ship to Canada?");
    expect(textsTo(h, customer), "the agent does not answer on a channel routed EXTERNAL").toEqual(["Monday to Friday, 9:00 to 18:00."]);
    expect(await lastReceived(seeded)).toEqual({ route: "external", deliver: true });
    await receiver.waitFor(1, 5_000);
    expect(hooksFor("Do you ship to Canada?")).toHaveLength(1);
    // No owner on the wire where the channel does not route AGENT (the agent decides nothing there).
    const conversations = await h.app.call("GET", "/conversations", { key: seeded.key });
    expect(conversations.body.data[0].thread_owner).toBeNull();

    // Back to following the project (null): the agent answers again.
    expect((await h.app.call("PATCH", `/channels/${channelId}`, { key: seeded.key, body: { routing_mode: null } })).body.routing_mode).toBeNull();
    await write("What are your opening hours?");
    expect(textsTo(h, customer)).toEqual(["Monday to Friday, 9:00 to 18:00.", "Monday to Friday, 9:00 to 18:00."]);
  });
});
