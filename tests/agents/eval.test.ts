import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { ensureSandboxChannel } from "@/lib/domain/channels/sandbox";
import { judge, scoreEval } from "@/lib/domain/agents/test-eval";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { insertAgent, insertNoopTool } from "./thread-support";

/**
 * POST /business-agents/test and /eval (docs/spec/decisions.md "Business agents"): the engine in dry
 * run, the checks, weights, llm_judge skipped (never passed), the 50-case limit.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await ensureSandboxChannel(app.db);
});
afterAll(() => app?.close());

const SKILLS = [{ name: "track", triggers: ["order"], tool: "order_status" }];

async function agentWithTool(): Promise<{ seeded: Seeded; agentId: string }> {
  const seeded = await app.seed();
  const agentId = await insertAgent(app, seeded.projectId, { skills: SKILLS, status: "DISABLED" });
  await insertNoopTool(app, seeded.projectId, agentId, "order_status", { text: "Your order ships tomorrow.", eta_days: 1 });
  return { seeded, agentId };
}

async function evalOf(seeded: Seeded, agentId: string, cases: unknown[]) {
  return app.call("POST", "/business-agents/eval", { key: seeded.key, body: { business_agent_id: agentId, scenario: { cases } } });
}

describe("POST /business-agents/test", () => {
  it("runs the engine without sending: the FAQ answer, then a skill's NOOP tool with {text, contact} (any status, a DISABLED agent included)", async () => {
    const { seeded, agentId } = await agentWithTool();
    const faq = await app.call("POST", "/business-agents/test", { key: seeded.key, body: { business_agent_id: agentId, input: "opening hours?" } });
    expect(faq.status, JSON.stringify(faq.body)).toBe(200);
    expect(faq.body).toMatchObject({
      object: "business_agent_test",
      business_agent_id: agentId,
      result: { reply: "Monday to Friday, 9:00 to 18:00.", skill: null, tool_calls: [], handoff: false },
    });

    const skill = await app.call("POST", "/business-agents/test", {
      key: seeded.key,
      body: { business_agent_id: agentId, input: "Where is my order?", scenario: { contact: { name: "Ana", phone: "+15550001111" } } },
    });
    expect(skill.body.result).toMatchObject({
      reply: "Your order ships tomorrow.",
      skill: "track",
      handoff: false,
      tool_calls: [
        {
          tool: "order_status",
          arguments: { text: "Where is my order?", contact: { id: "test_contact", name: "Ana", phone: "+15550001111" } },
          result: { text: "Your order ships tomorrow.", eta_days: 1 },
          error: null,
        },
      ],
    });
    const handoff = await app.call("POST", "/business-agents/test", { key: seeded.key, body: { business_agent_id: agentId, input: "a person please" } });
    expect(handoff.body.result).toMatchObject({ handoff: true, reply: "Connecting you to a person." });
    const sent = await app.db.select().from(messages).where(eq(messages.projectId, seeded.projectId));
    expect(sent).toEqual([]);
  });

  it("another project's agent is a 404", async () => {
    const { agentId } = await agentWithTool();
    const other = await app.seed();
    expect((await app.call("POST", "/business-agents/test", { key: other.key, body: { business_agent_id: agentId, input: "hi" } })).status).toBe(404);
    expect((await evalOf(other, agentId, [{ name: "x", input: "hi", expect: { silent: true } }])).status).toBe(404);
  });
});

describe("POST /business-agents/eval", () => {
  it("scores weighted cases; llm_judge is skipped and never passed; silent; tool_called and tool_arguments with a NOOP tool; turns stop at a handoff", async () => {
    const { seeded, agentId } = await agentWithTool();
    const res = await evalOf(seeded, agentId, [
      { name: "hours", input: "what are your opening hours?", expect: { contains: ["monday", "18:00"], not_contains: "closed", silent: false }, weight: 2 },
      { name: "order", input: "my order?", expect: { tool_called: "order_status", tool_arguments: { contact: { id: "test_contact" } }, contains: "tomorrow" } },
      { name: "wrong", input: "do you ship to canada?", expect: { contains: "no" }, weight: 3 },
      { name: "greeting", input: "hello", expect: { silent: true, llm_judge: "greets back" } },
      { name: "judge only", input: "hello", expect: { llm_judge: { criteria: "greets back" } }, weight: 10 },
      { name: "handoff", turns: ["hi", "human please", "what are your opening hours?"], expect: { handoff: true, not_contains: "monday" } },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = res.body.result;
    // Evaluated weight: 2 + 1 + 3 + 1 + 1 = 8; passed: 2 + 1 + 1 + 1 = 5. The judge-only case (weight 10) counts nowhere.
    expect(result).toMatchObject({ score: 0.625, passed: 4, failed: 1, skipped: 1 });
    const byName = Object.fromEntries((result.cases as { name: string; passed: boolean; checks: any[] }[]).map((c) => [c.name, c]));
    expect(byName.wrong!.passed).toBe(false);
    expect(byName.wrong!.checks).toEqual([{ check: "contains", passed: false, detail: "missing: no" }]);
    expect(byName["judge only"]).toEqual({
      name: "judge only",
      passed: false,
      checks: [{ check: "llm_judge", passed: false, detail: "skipped: no language model offline; never counted as passed" }],
    });
    expect(byName.greeting!.passed).toBe(true);
    expect(byName.greeting!.checks.map((c: { check: string; passed: boolean }) => [c.check, c.passed])).toEqual([
      ["silent", true],
      ["llm_judge", false],
    ]);
    expect(byName.order!.checks.every((c: { passed: boolean }) => c.passed)).toBe(true);
    expect(byName.handoff).toMatchObject({ passed: true });
  });

  it("only skipped cases: score null", async () => {
    const { seeded, agentId } = await agentWithTool();
    const res = await evalOf(seeded, agentId, [{ name: "tone", input: "hi", expect: { llm_judge: "friendly" } }]);
    expect(res.body.result).toMatchObject({ score: null, passed: 0, failed: 0, skipped: 1 });
  });

  it("more than 50 cases, or a case with both input and turns, is a 400", async () => {
    const { seeded, agentId } = await agentWithTool();
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `c${i}`, input: "hi", expect: { silent: true } }));
    const tooMany = await evalOf(seeded, agentId, many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.issues["scenario.cases"]).toEqual(["At most 50 cases per eval."]);
    expect((await evalOf(seeded, agentId, many.slice(0, 50))).status).toBe(200);
    expect((await evalOf(seeded, agentId, [{ name: "both", input: "hi", turns: ["hi"], expect: {} }])).status).toBe(400);
    expect((await evalOf(seeded, agentId, [{ name: "none", expect: {} }])).status).toBe(400);
  });
});

describe("the checks (pure)", () => {
  it("contains ignores case and accents; tool_arguments compares nested keys; a case with no expectation is skipped", () => {
    const transcript = {
      replies: ["Café abierto: LUNES"],
      toolCalls: [{ tool: "t", arguments: { a: { b: 1, c: 2 } }, result: null, error: null }],
      handoff: false,
    };
    expect(judge({ contains: "cafe abierto", tool_arguments: { a: { b: 1 } } }, transcript).every((c) => c.passed)).toBe(true);
    expect(judge({ tool_arguments: { a: { b: 2 } } }, transcript)[0]).toMatchObject({ passed: false });
    expect(judge({ tool_called: "other", tool_arguments: { a: { b: 1 } } }, transcript).map((c) => c.passed)).toEqual([false, false]);
    expect(scoreEval([{ name: "empty", checks: judge({}, transcript) }])).toMatchObject({ score: null, skipped: 1 });
  });
});
