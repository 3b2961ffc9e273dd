import type { Ctx } from "@/lib/domain/context";
import { keywordMatches } from "@/lib/domain/automations/match";
import { callTool, type ToolCallInput, type ToolCallResult, type ToolRow } from "./tool-call";
import { bestFaq, faqEntries } from "./faq";

/**
 * The offline (simulator's) business agent, deterministic (docs/spec/decisions.md "Business agents"):
 * a handoff keyword passes the thread to the inbox; else the first skill whose trigger matches as a
 * whole word runs its tool and/or replies; else the best FAQ entry (faq.ts); else
 * settings.fallback_message; else silence. `decide` is the pure decision; `runAgent` carries it out
 * through callTool, for the live reply (respond.ts) and for test / eval (dry run) alike.
 */

export const DEFAULT_HANDOFF_KEYWORDS = ["human", "agent", "person"] as const;

interface AgentSkill {
  name: string;
  triggers: string[];
  tool: string | null;
  response: string | null;
}

export interface AgentSpec {
  settings: Record<string, unknown>;
  skills: readonly Record<string, unknown>[];
}

export interface TraceEntry {
  step: "handoff" | "skill" | "tool" | "faq" | "fallback";
  matched: boolean;
  detail: string;
}

export type Decision =
  | { kind: "handoff"; keyword: string; message: string | null }
  | { kind: "skill"; skill: AgentSkill; trigger: string }
  | { kind: "faq"; answer: string }
  | { kind: "fallback"; message: string }
  | { kind: "silent" };

export interface AgentResult {
  reply: string | null;
  skill: string | null;
  tool_calls: ToolCallResult[];
  handoff: boolean;
  trace: TraceEntry[];
}

const strings = (value: unknown): string[] | null => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : null);
const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value : null);

/** settings.handoff: {keywords?, message?}. An explicit empty keywords list means no handoff keyword. */
export function handoffSettings(settings: Record<string, unknown>): { keywords: string[]; message: string | null } {
  const handoff = settings.handoff && typeof settings.handoff === "object" ? (settings.handoff as Record<string, unknown>) : {};
  return { keywords: strings(handoff.keywords) ?? [...DEFAULT_HANDOFF_KEYWORDS], message: text(handoff.message) };
}

/** The skills as stored (PUT /business-agents/{id}/skills), read defensively: a skill without a name is ignored. */
function skillsOf(skills: readonly Record<string, unknown>[]): AgentSkill[] {
  return skills.flatMap((skill) => {
    const name = text(skill.name);
    if (!name) return [];
    return [{ name, triggers: strings(skill.triggers) ?? [], tool: text(skill.tool), response: text(skill.response) }];
  });
}

/** What the agent does with `input`, and why (the trace). */
export function decide(agent: AgentSpec, input: string): { decision: Decision; trace: TraceEntry[] } {
  const trace: TraceEntry[] = [];
  const handoff = handoffSettings(agent.settings);
  const keyword = handoff.keywords.find((k) => keywordMatches(k, input, "CONTAINS_WORD"));
  trace.push({ step: "handoff", matched: !!keyword, detail: keyword ? `handoff keyword '${keyword}'` : `no handoff keyword (${handoff.keywords.join(", ")})` });
  if (keyword) return { decision: { kind: "handoff", keyword, message: handoff.message }, trace };

  for (const skill of skillsOf(agent.skills)) {
    const trigger = skill.triggers.find((t) => keywordMatches(t, input, "CONTAINS_WORD"));
    if (trigger) {
      trace.push({ step: "skill", matched: true, detail: `skill '${skill.name}' (trigger '${trigger}')` });
      return { decision: { kind: "skill", skill, trigger }, trace };
    }
  }
  trace.push({ step: "skill", matched: false, detail: "no skill trigger matched" });

  const faq = bestFaq(faqEntries(agent.settings), input);
  trace.push({
    step: "faq",
    matched: !!faq,
    detail: faq ? `faq #${faq.index} '${faq.entry.q}' (${faq.shared.length} of ${faq.of} words: ${faq.shared.join(", ")})` : "no faq entry matched",
  });
  if (faq) return { decision: { kind: "faq", answer: faq.entry.a }, trace };

  const fallback = text(agent.settings.fallback_message);
  trace.push({ step: "fallback", matched: !!fallback, detail: fallback ? "settings.fallback_message" : "no fallback_message: silent" });
  return { decision: fallback ? { kind: "fallback", message: fallback } : { kind: "silent" }, trace };
}

/** A tool's result as reply text: its `text` when it has one, a string as is, anything else as JSON; nothing → silent. */
export function resultText(result: unknown): string | null {
  if (result === null || result === undefined) return null;
  if (typeof result === "string") return result.trim() ? result : null;
  if (typeof result === "object" && typeof (result as { text?: unknown }).text === "string") return text((result as { text: string }).text);
  return JSON.stringify(result);
}

export interface AgentRunInput {
  agent: AgentSpec;
  tools: readonly ToolRow[];
  text: string;
  contact: ToolCallInput["contact"];
  conversationId: string | null;
  channelId: string;
  dryRun: boolean;
}

/** Carries out the decision: the skill's tool through callTool (never throws), the reply, the handoff flag. */
export async function runAgent(ctx: Ctx, input: AgentRunInput): Promise<AgentResult> {
  const { decision, trace } = decide(input.agent, input.text);
  const result: AgentResult = { reply: null, skill: null, tool_calls: [], handoff: false, trace };
  switch (decision.kind) {
    case "handoff":
      return { ...result, handoff: true, reply: decision.message };
    case "faq":
      return { ...result, reply: decision.answer };
    case "fallback":
      return { ...result, reply: decision.message };
    case "silent":
      return result;
    case "skill":
      return { ...result, skill: decision.skill.name, ...(await runSkill(ctx, input, decision.skill, trace)) };
  }
}

/**
 * A skill: its tool (arguments {text, contact}) then its reply. With a `response` the reply is that
 * text (the tool ran for its effect: a Flow sent, a record written); without one it is the tool's
 * result as text. A tool that failed (or is missing) replies with the response, else the fallback.
 */
async function runSkill(ctx: Ctx, input: AgentRunInput, skill: AgentSkill, trace: TraceEntry[]): Promise<Pick<AgentResult, "reply" | "tool_calls">> {
  if (!skill.tool) return { reply: skill.response, tool_calls: [] };
  const args = { text: input.text, contact: input.contact };
  const tool = input.tools.find((t) => t.name === skill.tool);
  const call: ToolCallResult = tool
    ? await callTool(ctx, {
        tool,
        arguments: args,
        contact: input.contact,
        conversationId: input.conversationId,
        channelId: input.channelId,
        dryRun: input.dryRun,
      })
    : { tool: skill.tool, arguments: args, result: null, error: { code: "tool_not_found", message: `The agent has no tool named '${skill.tool}'.` } };
  trace.push({ step: "tool", matched: !call.error, detail: call.error ? `tool '${call.tool}' failed: ${call.error.code}` : `tool '${call.tool}' called` });
  const fallback = text(input.agent.settings.fallback_message);
  const reply = call.error ? (skill.response ?? fallback) : (skill.response ?? resultText(call.result));
  return { reply, tool_calls: [call] };
}
