import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiCanAnswer, type AiAnswerFacts } from "@/lib/domain/conversations";
import { createTestApp, type TestApp } from "../support/app";
import { insertAutomation, setProjectRouting } from "../automations/support";
import { insertAgent } from "../agents/thread-support";
import { conversationIn, inboxProject } from "./support";

/** The Conversation's ai_can_answer (docs/api-decisions.md "Team inbox"): the pure rule, then on the wire. */

const base: AiAnswerFacts = { handoff: "AI_ACTIVE", routing: "FLOWS", owner: null, activeAutomation: true };

describe("aiCanAnswer (pure)", () => {
  it("FLOWS with an active automation answers; without one it does not", () => {
    expect(aiCanAnswer(base)).toBe(true);
    expect(aiCanAnswer({ ...base, activeAutomation: false })).toBe(false);
  });

  it("AGENT answers only while the business agent owns the thread", () => {
    expect(aiCanAnswer({ ...base, routing: "AGENT", owner: "PROVIDER_AGENT", activeAutomation: false })).toBe(true);
    expect(aiCanAnswer({ ...base, routing: "AGENT", owner: "SERVICE" })).toBe(false);
    expect(aiCanAnswer({ ...base, routing: "AGENT", owner: "BUSINESS_INBOX" })).toBe(false);
    // Automations do not run under AGENT routing.
    expect(aiCanAnswer({ ...base, routing: "AGENT", owner: null, activeAutomation: true })).toBe(false);
  });

  it("EXTERNAL and NONE never answer themselves, whatever else is true", () => {
    for (const routing of ["EXTERNAL", "NONE"] as const) {
      expect(aiCanAnswer({ ...base, routing, owner: "PROVIDER_AGENT", activeAutomation: true })).toBe(false);
    }
  });

  it("a person has it (handoff HUMAN_ACTIVE): nothing automated answers", () => {
    expect(aiCanAnswer({ ...base, handoff: "HUMAN_ACTIVE" })).toBe(false);
    expect(aiCanAnswer({ ...base, handoff: "HUMAN_ACTIVE", routing: "AGENT", owner: "PROVIDER_AGENT" })).toBe(false);
  });
});

describe("ai_can_answer on the Conversation", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it("EXTERNAL: false; FLOWS without an automation: false; with an active one: true; handoff on: false", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const get = async () => (await project.api("GET", `/conversations/${conversation.id}`)).body.ai_can_answer;
    expect(await get()).toBe(false);
    await setProjectRouting(app, project.seeded.projectId, "FLOWS");
    expect(await get()).toBe(false);
    await insertAutomation(app, project.seeded.projectId, {
      key: "off",
      name: "Off",
      trigger: { type: "ANY_MESSAGE" },
      steps: [{ send_reply: { text: "hi" } }],
      active: false,
    });
    expect(await get()).toBe(false);
    await insertAutomation(app, project.seeded.projectId, {
      key: "any",
      name: "Any",
      trigger: { type: "ANY_MESSAGE" },
      steps: [{ send_reply: { text: "hi" } }],
    });
    expect(await get()).toBe(true);
    expect((await project.api("GET", "/conversations")).body.data[0].ai_can_answer).toBe(true);
    await project.api("POST", `/conversations/${conversation.id}/handoff`, { enabled: true });
    expect(await get()).toBe(false);
  });

  it("AGENT: true while the ACTIVE agent owns the thread; taken over by your service, or assigned (handoff on): false", async () => {
    const project = await inboxProject(app);
    await setProjectRouting(app, project.seeded.projectId, "AGENT");
    const { contact, conversation } = await conversationIn(app, project.seeded);
    const get = async () => (await project.api("GET", `/conversations/${conversation.id}`)).body;
    // No agent on the channel: the service owns the thread.
    expect(await get()).toMatchObject({ thread_owner: "SERVICE", ai_can_answer: false });
    const agentId = await insertAgent(app, project.seeded.projectId, { status: "ACTIVE" });
    expect(await get()).toMatchObject({ thread_owner: "PROVIDER_AGENT", ai_can_answer: true });
    const taken = await project.api("POST", "/business-agents/thread-control", { action: "take", channel_id: "ch_sandbox", contact_id: contact.id });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(await get()).toMatchObject({ thread_owner: "SERVICE", ai_can_answer: false });
    await project.api("POST", "/business-agents/thread-control", {
      action: "pass",
      channel_id: "ch_sandbox",
      contact_id: contact.id,
      business_agent_id: agentId,
    });
    expect(await get()).toMatchObject({ thread_owner: "PROVIDER_AGENT", ai_can_answer: true });
    await project.dash("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: project.member.userId });
    expect(await get()).toMatchObject({ thread_owner: "BUSINESS_INBOX", ai_can_answer: false, handoff: { status: "HUMAN_ACTIVE" } });
  });
});
