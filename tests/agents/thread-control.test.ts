import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { conversations, projects, threadControlStates } from "@/lib/db/schema";
import { ensureSandboxChannel, SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { inboundRoute } from "@/lib/domain/events";
import { resolveOwner, routingOwner } from "@/lib/domain/conversations/thread-owner";
import { ensureConversation } from "@/lib/domain/conversations";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { handoffOf, insertAgent, setAgentStatus, setRouting } from "./thread-support";

/**
 * POST /business-agents/thread-control (docs/spec/decisions.md "Business agents"): the default owner,
 * take / pass / get, the conversation's handoff that goes with BUSINESS_INBOX, and where inbound goes
 * for each owner (lib/domain/events inboundRoute).
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await ensureSandboxChannel(app.db);
});
afterAll(() => app?.close());

let counter = 0;
async function projectWithContact(mode: "EXTERNAL" | "AGENT" = "AGENT") {
  const seeded = await app.seed({ orgName: `Threads ${++counter}` });
  await setRouting(app, seeded.projectId, mode);
  const phone = `+1555777${String(counter).padStart(4, "0")}`;
  const contact = await app.call("POST", "/contacts", { key: seeded.key, body: { phone } });
  expect(contact.status, JSON.stringify(contact.body)).toBe(200);
  return { seeded, contactId: contact.body.id as string };
}

async function control(seeded: Seeded, body: Record<string, unknown>, key = seeded.key) {
  return app.call("POST", "/business-agents/thread-control", { key, body: { channel_id: SANDBOX_CHANNEL_ID, ...body } });
}

/** Where the contact's next inbound message would go, from the stored state (as ingest decides it). */
async function routeNow(projectId: string, contactId: string) {
  const [project] = await app.db.select().from(projects).where(eq(projects.id, projectId));
  const channel = await ensureSandboxChannel(app.db);
  const conversation = await ensureConversation(app.db, projectId, contactId, SANDBOX_CHANNEL_ID, app.clock.now());
  return inboundRoute(project!, channel, conversation, await routingOwner(app.db, project!, channel, contactId));
}

describe("the owner in force (pure)", () => {
  const agent = { id: "ba_1", status: "ACTIVE" as const };
  const explicit = (owner: "PROVIDER_AGENT" | "SERVICE" | "BUSINESS_INBOX") => ({
    owner,
    businessAgentId: owner === "PROVIDER_AGENT" ? "ba_1" : null,
    metaResult: { action: "pass" },
  });
  it.each([
    [{ routesAgent: true, agent, stored: null }, "PROVIDER_AGENT"],
    [{ routesAgent: false, agent, stored: null }, "SERVICE"],
    [{ routesAgent: true, agent: { ...agent, status: "PROVISIONING" as const }, stored: null }, "SERVICE"],
    [{ routesAgent: true, agent: null, stored: null }, "SERVICE"],
    [{ routesAgent: true, agent, stored: { owner: "SERVICE" as const, businessAgentId: null, metaResult: {} } }, "PROVIDER_AGENT"],
    [{ routesAgent: true, agent, stored: explicit("SERVICE") }, "SERVICE"],
    [{ routesAgent: true, agent, stored: explicit("BUSINESS_INBOX") }, "BUSINESS_INBOX"],
    [{ routesAgent: true, agent: { ...agent, status: "DISABLED" as const }, stored: explicit("PROVIDER_AGENT") }, "SERVICE"],
    // An explicit pass to the agent is reported whatever the routing (the contract); routing decides where inbound goes.
    [{ routesAgent: false, agent, stored: explicit("PROVIDER_AGENT") }, "PROVIDER_AGENT"],
  ])("%o → %s", (facts, owner) => {
    expect(resolveOwner(facts).owner).toBe(owner);
  });
});

describe("POST /business-agents/thread-control get", () => {
  it("a thread never taken or passed follows the default, and the first get gives it a stable id without pinning it", async () => {
    const { seeded, contactId } = await projectWithContact("EXTERNAL");
    const first = await control(seeded, { action: "get", contact_id: contactId });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      object: "thread_control_state",
      project_id: seeded.projectId,
      channel_id: SANDBOX_CHANNEL_ID,
      contact_id: contactId,
      business_agent_id: null,
      owner: "SERVICE",
      reason: null,
      meta_thread_id: null,
      meta_result: {},
    });
    expect(first.body.id).toMatch(/^thc_/);

    // The project moves to AGENT with an ACTIVE agent: the same state now shows the agent as owner.
    await setRouting(app, seeded.projectId, "AGENT");
    const agentId = await insertAgent(app, seeded.projectId);
    const second = await control(seeded, { action: "get", contact_id: contactId });
    expect(second.body).toMatchObject({ id: first.body.id, owner: "PROVIDER_AGENT", business_agent_id: agentId });
    const rows = await app.db.select().from(threadControlStates).where(eq(threadControlStates.contactId, contactId));
    expect(rows).toHaveLength(1);
  });

  it("another project's contact or an unknown channel is a 404; the read scope is not enough (one operation for all actions)", async () => {
    const { seeded, contactId } = await projectWithContact();
    const other = await projectWithContact();
    expect((await control(other.seeded, { action: "get", contact_id: contactId })).status).toBe(404);
    expect((await control(seeded, { action: "get", contact_id: contactId, channel_id: "ch_unknown" })).status).toBe(404);
    const readOnly = await app.addKey(seeded, ["business_agents:read"]);
    const refused = await control(seeded, { action: "get", contact_id: contactId }, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "business_agents:write" });
  });
});

describe("POST /business-agents/thread-control take and pass", () => {
  it("AGENT + ACTIVE agent: agent → take (SERVICE, webhook) → pass to the inbox (handoff on) → take (handoff off) → pass to the agent", async () => {
    const { seeded, contactId } = await projectWithContact();
    const agentId = await insertAgent(app, seeded.projectId);
    expect(await routeNow(seeded.projectId, contactId)).toEqual({ route: "agent", deliver: false });

    const taken = await control(seeded, { action: "take", contact_id: contactId, reason: "VIP", thread_id: "thread-1" });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body).toMatchObject({
      owner: "SERVICE",
      business_agent_id: null,
      reason: "VIP",
      meta_thread_id: "thread-1",
      meta_result: { action: "take", success: true },
    });
    expect(await routeNow(seeded.projectId, contactId)).toEqual({ route: "external", deliver: true });

    const inbox = await control(seeded, { action: "pass", contact_id: contactId, reason: "refund", payload: { ticket: 7 } });
    expect(inbox.body).toMatchObject({
      id: taken.body.id,
      owner: "BUSINESS_INBOX",
      reason: "refund",
      meta_thread_id: "thread-1",
      meta_result: { action: "pass", success: true, payload: { ticket: 7 } },
    });
    expect(await handoffOf(app, seeded.projectId, contactId)).toEqual({ status: "HUMAN_ACTIVE", reason: "refund" });
    expect(await routeNow(seeded.projectId, contactId)).toEqual({ route: "handoff", deliver: false });

    const back = await control(seeded, { action: "take", contact_id: contactId });
    expect(back.body).toMatchObject({ owner: "SERVICE", reason: null });
    expect(await handoffOf(app, seeded.projectId, contactId)).toMatchObject({ status: "AI_ACTIVE" });

    const toAgent = await control(seeded, { action: "pass", contact_id: contactId, business_agent_id: agentId });
    expect(toAgent.body).toMatchObject({ owner: "PROVIDER_AGENT", business_agent_id: agentId });
    expect(await routeNow(seeded.projectId, contactId)).toEqual({ route: "agent", deliver: false });

    // The agent stops being ACTIVE: its threads follow SERVICE (the pass is kept for when it is back).
    await setAgentStatus(app, agentId, "DISABLED");
    expect((await control(seeded, { action: "get", contact_id: contactId })).body).toMatchObject({ owner: "SERVICE", business_agent_id: agentId });
    expect(await routeNow(seeded.projectId, contactId)).toEqual({ route: "external", deliver: true });
    await setAgentStatus(app, agentId, "ACTIVE");
    expect((await control(seeded, { action: "get", contact_id: contactId })).body).toMatchObject({ owner: "PROVIDER_AGENT" });
  });

  it("a project not routing AGENT: pass with the channel's ACTIVE agent → PROVIDER_AGENT, pass without → BUSINESS_INBOX (the contract, whatever the routing)", async () => {
    const { seeded, contactId } = await projectWithContact("EXTERNAL");
    const agentId = await insertAgent(app, seeded.projectId);

    const toAgent = await control(seeded, { action: "pass", contact_id: contactId, business_agent_id: agentId });
    expect(toAgent.status, JSON.stringify(toAgent.body)).toBe(200);
    expect(toAgent.body).toMatchObject({ owner: "PROVIDER_AGENT", business_agent_id: agentId, meta_result: { action: "pass", success: true } });
    expect((await control(seeded, { action: "get", contact_id: contactId })).body).toMatchObject({ owner: "PROVIDER_AGENT", business_agent_id: agentId });
    // Routing still decides delivery: an EXTERNAL project's inbound goes to its webhook.
    expect(await routeNow(seeded.projectId, contactId)).toEqual({ route: "external", deliver: true });

    const inbox = await control(seeded, { action: "pass", contact_id: contactId });
    expect(inbox.body).toMatchObject({ owner: "BUSINESS_INBOX", business_agent_id: null });
    expect(await handoffOf(app, seeded.projectId, contactId)).toMatchObject({ status: "HUMAN_ACTIVE" });
  });

  it("pass to the inbox creates the conversation when the contact has none yet", async () => {
    const { seeded, contactId } = await projectWithContact();
    const before = await app.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.projectId, seeded.projectId), eq(conversations.contactId, contactId)));
    expect(before).toHaveLength(0);
    const inbox = await control(seeded, { action: "pass", contact_id: contactId });
    expect(inbox.body).toMatchObject({ owner: "BUSINESS_INBOX" });
    expect(await handoffOf(app, seeded.projectId, contactId)).toEqual({ status: "HUMAN_ACTIVE", reason: "passed to the business inbox" });
  });

  it("pass to an agent: another project's → 404, another channel's → 400, one not ACTIVE → 409; nothing changes", async () => {
    const { seeded, contactId } = await projectWithContact();
    const other = await projectWithContact();
    const foreign = await insertAgent(app, other.seeded.projectId);
    expect((await control(seeded, { action: "pass", contact_id: contactId, business_agent_id: foreign })).status).toBe(404);

    const dedicated = await app.call("POST", "/channels", {
      key: seeded.key,
      body: {
        platform: "PLATFORM_A",
        phone_number: `+1555888${String(counter).padStart(4, "0")}`,
        credentials: { phone_number_id: `pn-threads-${counter}`, business_account_id: `waba-threads-${counter}`, access_token: "t" },
      },
    });
    expect(dedicated.status, JSON.stringify(dedicated.body)).toBe(200);
    const elsewhere = await insertAgent(app, seeded.projectId, { channelId: dedicated.body.id });
    const wrongChannel = await control(seeded, { action: "pass", contact_id: contactId, business_agent_id: elsewhere });
    expect(wrongChannel.status).toBe(400);
    expect(wrongChannel.body.issues).toEqual({ business_agent_id: ["must be the agent of channel_id"] });

    const provisioning = await insertAgent(app, seeded.projectId, { status: "PROVISIONING" });
    const notActive = await control(seeded, { action: "pass", contact_id: contactId, business_agent_id: provisioning });
    expect(notActive.status).toBe(409);
    expect(notActive.body).toMatchObject({ error: "conflict", status: "PROVISIONING" });

    const rows = await app.db.select().from(threadControlStates).where(eq(threadControlStates.contactId, contactId));
    expect(rows).toHaveLength(0);
  });
});
