import type { Ctx } from "@/lib/domain/context";
import { getContactRowOrThrow } from "@/lib/domain/contacts";
import { normalizeText } from "@/lib/domain/automations/match";
import { getAgentRowOrThrow, type AgentRow } from "./agent-row";
import { runAgent, type AgentResult } from "./engine";
import { loadAgentTools, type ToolCallInput, type ToolCallResult, type ToolRow } from "./tool-call";

/**
 * POST /business-agents/test and /eval (docs/spec/decisions.md "Business agents"): the engine in dry
 * run (nothing sent; a FLOW tool is reported, not sent). Our decisions (docs/api-decisions.md
 * "Business agents: test and eval"):
 * - The contact the tools see is scenario.contact_id (one of the project's contacts) when given, else
 *   {id: "test_contact", name, phone} from scenario.contact (both null by default).
 * - A case with `turns` runs them in order as one conversation; a handoff ends it (later turns are
 *   the inbox's). Its checks read the whole transcript: every reply, every tool call.
 * - contains / not_contains compare normalised text (case and accents ignored), a string or a list.
 * - A check that cannot be evaluated offline (llm_judge) is skipped: passed false, never counted as
 *   passed. A case is passed when it has at least one evaluated check and all of them passed, failed
 *   when one failed, skipped when none was evaluated; score = weight of passed cases / weight of
 *   passed + failed cases (weight default 1), rounded to 4 places; null when no case was evaluated.
 */

export interface Expect {
  contains?: string | string[] | undefined;
  not_contains?: string | string[] | undefined;
  tool_called?: string | string[] | undefined;
  tool_arguments?: Record<string, unknown> | undefined;
  handoff?: boolean | undefined;
  silent?: boolean | undefined;
  llm_judge?: unknown;
}

export interface EvalCase {
  name: string;
  input?: string | undefined;
  turns?: string[] | undefined;
  expect: Expect;
  weight?: number | undefined;
}

export interface Check {
  check: string;
  passed: boolean;
  detail: string;
  /** Not on the wire: a skipped check is reported as not passed, with a detail saying why. */
  skipped?: boolean;
}

export interface Transcript {
  replies: string[];
  toolCalls: ToolCallResult[];
  handoff: boolean;
}

const listOf = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** Every check the case's `expect` names, judged against the transcript (pure). */
export function judge(expect: Expect, transcript: Transcript): Check[] {
  const said = normalizeText(transcript.replies.join("\n"));
  const checks: Check[] = [];
  if (expect.contains !== undefined) {
    const missing = listOf(expect.contains).filter((s) => !said.includes(normalizeText(s)));
    checks.push({ check: "contains", passed: missing.length === 0, detail: missing.length ? `missing: ${missing.join(" | ")}` : "all present" });
  }
  if (expect.not_contains !== undefined) {
    const found = listOf(expect.not_contains).filter((s) => normalizeText(s) && said.includes(normalizeText(s)));
    checks.push({ check: "not_contains", passed: found.length === 0, detail: found.length ? `found: ${found.join(" | ")}` : "none present" });
  }
  const called = transcript.toolCalls.map((c) => c.tool);
  if (expect.tool_called !== undefined) {
    const missing = listOf(expect.tool_called).filter((name) => !called.includes(name));
    checks.push({
      check: "tool_called",
      passed: missing.length === 0,
      detail: missing.length ? `not called: ${missing.join(", ")} (called: ${called.join(", ") || "none"})` : `called: ${called.join(", ")}`,
    });
  }
  if (expect.tool_arguments !== undefined) checks.push(argumentsCheck(expect, transcript.toolCalls));
  if (expect.handoff !== undefined) {
    checks.push({ check: "handoff", passed: transcript.handoff === expect.handoff, detail: transcript.handoff ? "handed off" : "no handoff" });
  }
  if (expect.silent !== undefined) {
    const silent = transcript.replies.length === 0;
    checks.push({ check: "silent", passed: silent === expect.silent, detail: silent ? "no reply" : `${transcript.replies.length} reply(ies)` });
  }
  if (expect.llm_judge !== undefined) {
    checks.push({ check: "llm_judge", passed: false, skipped: true, detail: "skipped: no language model offline; never counted as passed" });
  }
  return checks;
}

/** Some call (of the tool_called tools, when named) whose arguments contain every expected key with an equal value. */
function argumentsCheck(expect: Expect, calls: ToolCallResult[]): Check {
  const named = expect.tool_called === undefined ? null : listOf(expect.tool_called);
  const candidates = calls.filter((c) => !named || named.includes(c.tool));
  const wanted = expect.tool_arguments!;
  const hit = candidates.find((c) => containsAll(c.arguments, wanted));
  return {
    check: "tool_arguments",
    passed: !!hit,
    detail: hit ? `matched in ${hit.tool}` : candidates.length ? `no call had ${JSON.stringify(wanted)}` : "no tool call to compare",
  };
}

/** `actual` has every key of `expected` with a deeply equal value (objects compared the same way, key by key). */
function containsAll(actual: unknown, expected: unknown): boolean {
  if (expected && typeof expected === "object" && !Array.isArray(expected)) {
    if (!actual || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) => containsAll((actual as Record<string, unknown>)[key], value));
  }
  return JSON.stringify(actual) === JSON.stringify(expected);
}

export type CaseOutcome = "passed" | "failed" | "skipped";

export function outcomeOf(checks: Check[]): CaseOutcome {
  const evaluated = checks.filter((c) => !c.skipped);
  if (evaluated.length === 0) return "skipped";
  return evaluated.every((c) => c.passed) ? "passed" : "failed";
}

/** The eval's result from each case's checks (pure). */
export function scoreEval(cases: { name: string; weight?: number | undefined; checks: Check[] }[]) {
  let passedWeight = 0;
  let evaluatedWeight = 0;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const out = cases.map(({ name, weight, checks }) => {
    const outcome = outcomeOf(checks);
    counts[outcome] += 1;
    if (outcome !== "skipped") evaluatedWeight += weight ?? 1;
    if (outcome === "passed") passedWeight += weight ?? 1;
    return { name, passed: outcome === "passed", checks: checks.map(({ check, passed, detail }) => ({ check, passed, detail })) };
  });
  const score = evaluatedWeight > 0 ? Math.round((passedWeight / evaluatedWeight) * 10_000) / 10_000 : null;
  return { score, ...counts, cases: out };
}

interface Scenario {
  contact_id?: unknown;
  contact?: unknown;
}

interface Loaded {
  agent: AgentRow;
  tools: ToolRow[];
  contact: ToolCallInput["contact"];
}

async function load(ctx: Ctx, agentId: string, scenario: Scenario | undefined): Promise<Loaded> {
  const agent = await getAgentRowOrThrow(ctx, agentId);
  const tools = await loadAgentTools(ctx, agent.id);
  return { agent, tools, contact: await testContact(ctx, scenario) };
}

async function testContact(ctx: Ctx, scenario: Scenario | undefined): Promise<ToolCallInput["contact"]> {
  if (typeof scenario?.contact_id === "string") {
    const row = await getContactRowOrThrow(ctx, scenario.contact_id);
    return { id: row.id, name: row.name, phone: row.phone };
  }
  const given = scenario?.contact && typeof scenario.contact === "object" ? (scenario.contact as Record<string, unknown>) : {};
  const str = (value: unknown) => (typeof value === "string" ? value : null);
  return { id: "test_contact", name: str(given.name), phone: str(given.phone) };
}

function dryRun(ctx: Ctx, loaded: Loaded, text: string): Promise<AgentResult> {
  return runAgent(ctx, {
    agent: loaded.agent,
    tools: loaded.tools,
    text,
    contact: loaded.contact,
    conversationId: null,
    channelId: loaded.agent.channelId,
    dryRun: true,
  });
}

/** POST /business-agents/test. */
export async function testAgent(ctx: Ctx, input: { business_agent_id: string; input?: string | undefined; scenario?: Record<string, unknown> | undefined }) {
  const loaded = await load(ctx, input.business_agent_id, input.scenario);
  const result = await dryRun(ctx, loaded, input.input ?? "");
  return { object: "business_agent_test" as const, business_agent_id: loaded.agent.id, result };
}

/** One case as a conversation: its turns until a handoff. */
async function transcriptOf(ctx: Ctx, loaded: Loaded, turns: string[]): Promise<Transcript> {
  const transcript: Transcript = { replies: [], toolCalls: [], handoff: false };
  for (const turn of turns) {
    const result = await dryRun(ctx, loaded, turn);
    if (result.reply) transcript.replies.push(result.reply);
    transcript.toolCalls.push(...result.tool_calls);
    if (result.handoff) {
      transcript.handoff = true;
      break;
    }
  }
  return transcript;
}

/** POST /business-agents/eval: synchronous, the cases one after the other. */
export async function evalAgent(ctx: Ctx, input: { business_agent_id: string; scenario: { cases: EvalCase[]; contact_id?: string | undefined } & Scenario }) {
  const loaded = await load(ctx, input.business_agent_id, input.scenario);
  const judged = [];
  for (const c of input.scenario.cases) {
    const transcript = await transcriptOf(ctx, loaded, c.turns ?? [c.input ?? ""]);
    judged.push({ name: c.name, weight: c.weight, checks: judge(c.expect, transcript) });
  }
  return { object: "business_agent_eval" as const, business_agent_id: loaded.agent.id, result: scoreEval(judged) };
}
