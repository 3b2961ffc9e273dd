import { describe, expect, it } from "vitest";
import { whoAnswers, type AnsweringFacts } from "@/components/inbox/who-answers";

/**
 * The inbox's "who answers" badge (components/inbox/who-answers.ts, issue 32 item 14): "AI active"
 * only when the channel's effective routing lets an agent or an automation answer the conversation,
 * never merely because no person took it over (handoff AI_ACTIVE).
 */
const open = { handoff: { status: "AI_ACTIVE" as const }, thread_owner: null };
const sandbox = { is_sandbox: true, routing_mode: "EXTERNAL" as const };
const dedicated = (routing_mode: "EXTERNAL" | "FLOWS" | "NONE" | null) => ({ is_sandbox: false, routing_mode });
const anyMessage = { active: true, trigger: { type: "ANY_MESSAGE" as const } };
const keyword = { active: true, trigger: { type: "KEYWORD" as const, keywords: ["hi"] } };
const welcome = { active: true, trigger: { type: "WELCOME" as const } };
const facts = (over: Partial<AnsweringFacts>): AnsweringFacts => ({ projectRouting: "EXTERNAL", hasWebhook: true, automations: [], ...over });

describe("who answers a conversation", () => {
  it("a person, whenever handoff is on or the inbox owns the thread, whatever the routing", () => {
    expect(whoAnswers(undefined, { handoff: { status: "HUMAN_ACTIVE" }, thread_owner: null }, sandbox)).toMatchObject({
      answerer: "person",
      label: "Human active",
    });
    expect(whoAnswers(facts({ projectRouting: "AGENT" }), { ...open, thread_owner: "BUSINESS_INBOX" }, sandbox)?.answerer).toBe("person");
  });

  it("AGENT: AI active only while the agent owns the thread (the server names it owner only while the channel's agent is ACTIVE)", () => {
    expect(whoAnswers(facts({ projectRouting: "AGENT" }), { ...open, thread_owner: "PROVIDER_AGENT" }, sandbox)).toMatchObject({
      answerer: "agent",
      label: "AI active",
    });
    const taken = whoAnswers(facts({ projectRouting: "AGENT" }), { ...open, thread_owner: "SERVICE" }, sandbox);
    expect(taken).toMatchObject({ answerer: "webhook", label: "Your webhook" });
    expect(taken?.label).not.toBe("AI active");
    expect(whoAnswers(facts({ projectRouting: "AGENT", hasWebhook: false }), { ...open, thread_owner: "SERVICE" }, sandbox)?.answerer).toBe("nobody");
  });

  it("FLOWS: AI active with an active any-message automation; keywords only say so; none, inactive or welcome-only answer nothing", () => {
    const flows = (automations: AnsweringFacts["automations"]) => whoAnswers(facts({ projectRouting: "FLOWS", automations }), open, sandbox);
    expect(flows([keyword, anyMessage])).toMatchObject({ answerer: "automation", label: "AI active" });
    expect(flows([keyword])).toMatchObject({ answerer: "keywords", label: "AI on keywords" });
    expect(flows([])).toMatchObject({ answerer: "nobody", label: "Not answered" });
    expect(flows([{ ...anyMessage, active: false }])?.answerer).toBe("nobody");
    expect(flows([welcome])?.answerer).toBe("nobody");
    expect(flows(undefined)).toBeNull();
  });

  it("judges by the channel's own mode: automations on a FLOWS channel answer under an EXTERNAL project, not on an EXTERNAL or NONE one", () => {
    const withAutomation = facts({ projectRouting: "EXTERNAL", automations: [anyMessage] });
    expect(whoAnswers(withAutomation, open, dedicated("FLOWS"))?.label).toBe("AI active");
    expect(whoAnswers(withAutomation, open, dedicated("EXTERNAL"))).toMatchObject({ answerer: "webhook", label: "Your webhook" });
    expect(whoAnswers(withAutomation, open, sandbox)?.answerer).toBe("webhook");
    expect(whoAnswers(facts({ projectRouting: "FLOWS", automations: [anyMessage] }), open, dedicated("NONE"))).toMatchObject({
      answerer: "nobody",
      label: "Not answered",
    });
  });

  it("an AGENT project does not override a dedicated channel's own routing: EXTERNAL there is the webhook; a channel that follows the project is the agent's", () => {
    const agentProject = facts({ projectRouting: "AGENT" });
    expect(whoAnswers(agentProject, { ...open, thread_owner: "PROVIDER_AGENT" }, dedicated("EXTERNAL"))).toMatchObject({
      answerer: "webhook",
      label: "Your webhook",
    });
    expect(whoAnswers(agentProject, { ...open, thread_owner: "PROVIDER_AGENT" }, dedicated(null))).toMatchObject({ answerer: "agent", label: "AI active" });
  });

  it("EXTERNAL without a webhook URL: nothing answers, and the tooltip says where to set one", () => {
    const none = whoAnswers(facts({ hasWebhook: false }), open, sandbox);
    expect(none).toMatchObject({ answerer: "nobody", label: "Not answered", tone: "warning" });
    expect(none?.why).toMatch(/Webhooks/);
  });

  it("says nothing until the project is loaded, rather than guess", () => {
    expect(whoAnswers(undefined, open, sandbox)).toBeNull();
  });

  it("shows AI active only when the server says something automated can answer (ai_can_answer)", () => {
    const anyFlows = facts({ projectRouting: "FLOWS", automations: [anyMessage] });
    // The facts say an automation answers, the server says nothing can: the badge follows the server.
    expect(whoAnswers(anyFlows, { ...open, ai_can_answer: false }, sandbox)).toMatchObject({ answerer: "webhook", label: "Your webhook" });
    expect(whoAnswers(facts({ projectRouting: "FLOWS", automations: [keyword], hasWebhook: false }), { ...open, ai_can_answer: false }, sandbox)?.label).toBe(
      "Not answered",
    );
    // The server says something answers: AI active, even where the browser's facts see only a webhook.
    expect(whoAnswers(facts({}), { ...open, ai_can_answer: true }, sandbox)).toMatchObject({ label: "AI active" });
    expect(whoAnswers(undefined, { ...open, ai_can_answer: true }, sandbox)).toMatchObject({ label: "AI active" });
    expect(whoAnswers(anyFlows, { ...open, ai_can_answer: true }, sandbox)).toMatchObject({ answerer: "automation", label: "AI active" });
    // A person always wins.
    expect(whoAnswers(anyFlows, { handoff: { status: "HUMAN_ACTIVE" }, thread_owner: null, ai_can_answer: true }, sandbox)?.answerer).toBe("person");
  });
});
