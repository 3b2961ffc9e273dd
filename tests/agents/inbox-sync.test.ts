import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSandboxChannel, SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { ensureConversation, type ConversationRow } from "@/lib/domain/conversations";
import { serializeConversations } from "@/lib/domain/conversations/serialize";
import { handoffMove } from "@/lib/domain/conversations/handoff";
import type { Ctx } from "@/lib/domain/context";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { projectCtx } from "./connector-support";
import { insertAgent, setAgentStatus, setRouting } from "./thread-support";

/**
 * The conversation's thread_owner and its handoff in step (docs/api-decisions.md "Business agents:
 * thread owner on the conversation"): the owner on the Conversation wire, POST
 * /conversations/{id}/handoff moving the thread, and thread control moving the handoff.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await ensureSandboxChannel(app.db);
});
afterAll(() => app?.close());

let counter = 0;
async function projectWith(mode: "EXTERNAL" | "AGENT", agent: "ACTIVE" | "DISABLED" | null = "ACTIVE") {
  const seeded = await app.seed({ orgName: `Inbox sync ${++counter}` });
  await setRouting(app, seeded.projectId, mode);
  const agentId = agent ? await insertAgent(app, seeded.projectId, { status: agent }) : null;
  return { seeded, agentId };
}

async function conversationOf(seeded: Seeded): Promise<ConversationRow> {
  const phone = `+1555888${String(++counter).padStart(4, "0")}`;
  const contact = await app.call("POST", "/contacts", { key: seeded.key, body: { phone } });
  expect(contact.status, JSON.stringify(contact.body)).toBe(200);
  return ensureConversation(app.db, seeded.projectId, contact.body.id as string, SANDBOX_CHANNEL_ID, app.clock.now());
}

async function handoff(seeded: Seeded, conversationId: string, body: Record<string, unknown>) {
  const res = await app.call("POST", `/conversations/${conversationId}/handoff`, { key: seeded.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function control(seeded: Seeded, contactId: string, body: Record<string, unknown>) {
  const res = await app.call("POST", "/business-agents/thread-control", {
    key: seeded.key,
    body: { channel_id: SANDBOX_CHANNEL_ID, contact_id: contactId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function ownerOnWire(seeded: Seeded, conversationId: string) {
  const res = await app.call("GET", `/conversations/${conversationId}`, { key: seeded.key });
  expect(res.status).toBe(200);
  return res.body.thread_owner;
}

describe("the move a handoff change implies (pure)", () => {
  const agent = { id: "ba_1", status: "ACTIVE" as const };
  it.each([
    [true, { routesAgent: true, owner: "PROVIDER_AGENT", agent }, { owner: "BUSINESS_INBOX", agentId: null, action: "pass" }],
    [true, { routesAgent: true, owner: "SERVICE", agent }, { owner: "BUSINESS_INBOX", agentId: null, action: "pass" }],
    [true, { routesAgent: true, owner: "BUSINESS_INBOX", agent }, null],
    [true, { routesAgent: false, owner: "SERVICE", agent }, null],
    [false, { routesAgent: true, owner: "BUSINESS_INBOX", agent }, { owner: "PROVIDER_AGENT", agentId: "ba_1", action: "pass" }],
    [
      false,
      { routesAgent: true, owner: "BUSINESS_INBOX", agent: { ...agent, status: "DISABLED" as const } },
      { owner: "SERVICE", agentId: null, action: "take" },
    ],
    [false, { routesAgent: false, owner: "BUSINESS_INBOX", agent }, { owner: "SERVICE", agentId: null, action: "take" }],
    [false, { routesAgent: true, owner: "PROVIDER_AGENT", agent }, null],
    [false, { routesAgent: true, owner: "SERVICE", agent }, null],
  ] as const)("enabled %s, %o → %o", (enabled, thread, move) => {
    expect(handoffMove(enabled, thread)).toEqual(move);
  });
});

describe("thread_owner on the Conversation wire", () => {
  it("is the owner in force under AGENT routing, and null when the project routes otherwise", async () => {
    const agentProject = await projectWith("AGENT");
    const conversation = await conversationOf(agentProject.seeded);
    expect(await ownerOnWire(agentProject.seeded, conversation.id)).toBe("PROVIDER_AGENT");
    await control(agentProject.seeded, conversation.contactId, { action: "take" });
    expect(await ownerOnWire(agentProject.seeded, conversation.id)).toBe("SERVICE");
    await setAgentStatus(app, agentProject.agentId!, "DISABLED");
    await control(agentProject.seeded, conversation.contactId, { action: "get" });
    expect(await ownerOnWire(agentProject.seeded, conversation.id)).toBe("SERVICE");

    const external = await projectWith("EXTERNAL");
    const other = await conversationOf(external.seeded);
    await control(external.seeded, other.contactId, { action: "pass" });
    const res = await app.call("GET", `/conversations/${other.id}`, { key: external.seeded.key });
    expect(res.body).toHaveProperty("thread_owner", null);
    expect(res.body.handoff.status).toBe("HUMAN_ACTIVE");
  });

  it("each row of a list carries its own thread's owner, with the same number of queries for one row as for a page", async () => {
    const { seeded } = await projectWith("AGENT");
    const [byAgent, byInbox, byService] = [await conversationOf(seeded), await conversationOf(seeded), await conversationOf(seeded)];
    await control(seeded, byInbox.contactId, { action: "pass" });
    await control(seeded, byService.contactId, { action: "take" });
    const list = await app.call("GET", "/conversations?limit=10", { key: seeded.key });
    expect(list.status).toBe(200);
    const owners = Object.fromEntries((list.body.data as { id: string; thread_owner: string }[]).map((c) => [c.id, c.thread_owner]));
    expect(owners).toEqual({ [byAgent.id]: "PROVIDER_AGENT", [byInbox.id]: "BUSINESS_INBOX", [byService.id]: "SERVICE" });

    const ctx = await projectCtx(app, seeded.projectId);
    const rows = [byAgent, byInbox, byService];
    const one = await selectsWhile(ctx, (counted) => serializeConversations(counted, rows.slice(0, 1)));
    const page = await selectsWhile(ctx, (counted) => serializeConversations(counted, rows));
    expect(page.result.map((c) => c.thread_owner)).toEqual(["PROVIDER_AGENT", "BUSINESS_INBOX", "SERVICE"]);
    expect(page.selects).toBe(one.selects);
  });
});

/** Runs `work` on a ctx whose database counts the selects it starts (the real database underneath). */
async function selectsWhile<T>(ctx: Ctx, work: (counted: Ctx) => Promise<T>): Promise<{ result: T; selects: number }> {
  let selects = 0;
  const db = new Proxy(ctx.db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== "select" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        selects++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const result = await work({ ...ctx, db });
  return { result, selects };
}

describe("POST /conversations/{id}/handoff moves the thread", () => {
  it("on under AGENT routing passes the thread to BUSINESS_INBOX; off gives it back to the ACTIVE agent", async () => {
    const { seeded, agentId } = await projectWith("AGENT");
    const conversation = await conversationOf(seeded);

    const on = await handoff(seeded, conversation.id, { enabled: true, reason: "Customer asked for a person" });
    expect(on).toMatchObject({ thread_owner: "BUSINESS_INBOX", handoff: { status: "HUMAN_ACTIVE", reason: "Customer asked for a person" } });
    expect(await control(seeded, conversation.contactId, { action: "get" })).toMatchObject({
      owner: "BUSINESS_INBOX",
      business_agent_id: null,
      reason: "Customer asked for a person",
      meta_result: { action: "pass" },
    });

    const off = await handoff(seeded, conversation.id, { enabled: false });
    expect(off).toMatchObject({ thread_owner: "PROVIDER_AGENT", handoff: { status: "AI_ACTIVE", reason: null, handoff_at: null } });
    expect(await control(seeded, conversation.contactId, { action: "get" })).toMatchObject({ owner: "PROVIDER_AGENT", business_agent_id: agentId });
  });

  it("turning it on again keeps when it started; off on a thread the inbox does not own leaves the owner alone", async () => {
    const { seeded } = await projectWith("AGENT");
    const conversation = await conversationOf(seeded);
    const first = await handoff(seeded, conversation.id, { enabled: true, reason: "first" });
    app.clock.advance(60_000);
    const again = await handoff(seeded, conversation.id, { enabled: true });
    expect(again.handoff).toEqual({ status: "HUMAN_ACTIVE", reason: "first", handoff_at: first.handoff.handoff_at });
    expect(again.thread_owner).toBe("BUSINESS_INBOX");

    await control(seeded, conversation.contactId, { action: "take" });
    const off = await handoff(seeded, conversation.id, { enabled: false });
    expect(off.thread_owner).toBe("SERVICE");
    expect((await control(seeded, conversation.contactId, { action: "get" })).meta_result).toMatchObject({ action: "take" });
  });

  it("off gives an inbox thread to SERVICE when the agent is not ACTIVE, or when the project does not route AGENT", async () => {
    const disabled = await projectWith("AGENT", "DISABLED");
    const conversation = await conversationOf(disabled.seeded);
    await control(disabled.seeded, conversation.contactId, { action: "pass" });
    expect((await handoff(disabled.seeded, conversation.id, { enabled: false })).thread_owner).toBe("SERVICE");
    expect(await control(disabled.seeded, conversation.contactId, { action: "get" })).toMatchObject({ owner: "SERVICE", meta_result: { action: "take" } });

    const external = await projectWith("EXTERNAL");
    const other = await conversationOf(external.seeded);
    expect((await handoff(external.seeded, other.id, { enabled: true })).thread_owner).toBeNull();
    // Outside AGENT routing the handoff does not pass the thread: it still follows its default.
    expect(await control(external.seeded, other.contactId, { action: "get" })).toMatchObject({ owner: "SERVICE", meta_result: {} });
    await control(external.seeded, other.contactId, { action: "pass" });
    await handoff(external.seeded, other.id, { enabled: false });
    expect(await control(external.seeded, other.contactId, { action: "get" })).toMatchObject({ owner: "SERVICE", meta_result: { action: "take" } });
  });

  it("thread control and the handoff agree after a pass and a take from the thread-control side", async () => {
    const { seeded } = await projectWith("AGENT");
    const conversation = await conversationOf(seeded);
    await control(seeded, conversation.contactId, { action: "pass", reason: "angry customer" });
    let wire = (await app.call("GET", `/conversations/${conversation.id}`, { key: seeded.key })).body;
    expect(wire).toMatchObject({ thread_owner: "BUSINESS_INBOX", handoff: { status: "HUMAN_ACTIVE", reason: "angry customer" } });
    await control(seeded, conversation.contactId, { action: "take" });
    wire = (await app.call("GET", `/conversations/${conversation.id}`, { key: seeded.key })).body;
    expect(wire).toMatchObject({ thread_owner: "SERVICE", handoff: { status: "AI_ACTIVE" } });
  });
});
