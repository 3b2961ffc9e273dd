import type { AgentEvalCase } from "@/lib/client/agents";

/**
 * The eval runner's case rows (what the form edits) and the request's cases built from them, or
 * parsed from pasted JSON. Pure: tested in tests/dashboard/agent-eval-cases.test.ts.
 */
export type TriState = "any" | "yes" | "no";

export interface EvalCaseDraft {
  name: string;
  input: string;
  /** One expected phrase per line. */
  contains: string;
  not_contains: string;
  tool_called: string;
  handoff: TriState;
  silent: TriState;
  weight: string;
}

const MAX_EVAL_CASES = 50;

export function emptyCase(index: number): EvalCaseDraft {
  return { name: `case-${index + 1}`, input: "", contains: "", not_contains: "", tool_called: "", handoff: "any", silent: "any", weight: "" };
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

const oneOrMany = (values: string[]) => (values.length === 1 ? values[0] : values);
const triState = (value: TriState) => (value === "any" ? undefined : value === "yes");

export interface BuiltCases {
  cases: AgentEvalCase[];
  /** Row index → message; non-empty means nothing is sent. */
  errors: Record<number, string>;
}

function buildExpect(draft: EvalCaseDraft): AgentEvalCase["expect"] {
  const expect: AgentEvalCase["expect"] = {};
  const contains = lines(draft.contains);
  const notContains = lines(draft.not_contains);
  const tools = lines(draft.tool_called.replaceAll(",", "\n"));
  if (contains.length) expect.contains = oneOrMany(contains);
  if (notContains.length) expect.not_contains = oneOrMany(notContains);
  if (tools.length) expect.tool_called = oneOrMany(tools);
  const handoff = triState(draft.handoff);
  const silent = triState(draft.silent);
  if (handoff !== undefined) expect.handoff = handoff;
  if (silent !== undefined) expect.silent = silent;
  return expect;
}

function rowError(draft: EvalCaseDraft, seen: Set<string>): string | null {
  const name = draft.name.trim();
  if (!name) return "Give the case a name.";
  if (seen.has(name)) return `Another case is already named “${name}”.`;
  if (draft.weight.trim()) {
    const weight = Number(draft.weight);
    if (!Number.isFinite(weight) || weight <= 0 || weight > 1000) return "Weight is a number above 0, at most 1000.";
  }
  return null;
}

/** The eval request's cases from the rows; an expectation left empty is left out (the case is then skipped). */
export function buildEvalCases(drafts: readonly EvalCaseDraft[]): BuiltCases {
  const errors: Record<number, string> = {};
  const seen = new Set<string>();
  const cases: AgentEvalCase[] = [];
  drafts.forEach((draft, index) => {
    const error = rowError(draft, seen);
    seen.add(draft.name.trim());
    if (error) {
      errors[index] = error;
      return;
    }
    const built: AgentEvalCase = { name: draft.name.trim(), input: draft.input, expect: buildExpect(draft) };
    if (draft.weight.trim()) built.weight = Number(draft.weight);
    cases.push(built);
  });
  if (drafts.length > MAX_EVAL_CASES) errors[MAX_EVAL_CASES] = `At most ${MAX_EVAL_CASES} cases per eval.`;
  return { cases, errors };
}

/** Pasted JSON: a cases array, or {cases: [...]} (a scenario). The server checks each case's shape. */
export function parseEvalJson(text: string): { cases: AgentEvalCase[] } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    return { error: `Not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  const cases = Array.isArray(parsed) ? parsed : parsed && typeof parsed === "object" ? (parsed as { cases?: unknown }).cases : undefined;
  if (!Array.isArray(cases)) return { error: "Paste an array of cases, or an object with a “cases” array." };
  if (cases.length === 0) return { error: "Add at least one case." };
  if (cases.length > MAX_EVAL_CASES) return { error: `At most ${MAX_EVAL_CASES} cases per eval (${cases.length} pasted).` };
  if (!cases.every((c) => c && typeof c === "object" && !Array.isArray(c))) return { error: "Each case is an object: {name, input, expect}." };
  return { cases: cases as AgentEvalCase[] };
}

const joinLines = (value: string | string[] | undefined) => (value === undefined ? "" : Array.isArray(value) ? value.join("\n") : value);
const fromBool = (value: boolean | undefined): TriState => (value === undefined ? "any" : value ? "yes" : "no");

/** The reverse, so pasted JSON can be edited as rows (turns are shown as the first turn: rows hold one input). */
export function draftFromCase(evalCase: AgentEvalCase): EvalCaseDraft {
  const expect = evalCase.expect ?? {};
  return {
    name: evalCase.name,
    input: evalCase.input ?? evalCase.turns?.[0] ?? "",
    contains: joinLines(expect.contains),
    not_contains: joinLines(expect.not_contains),
    tool_called: joinLines(expect.tool_called),
    handoff: fromBool(expect.handoff),
    silent: fromBool(expect.silent),
    weight: evalCase.weight === undefined ? "" : String(evalCase.weight),
  };
}

export type CheckOutcome = "passed" | "failed" | "skipped";
interface WireCheck {
  check: string;
  passed: boolean;
  detail: string;
}

/** A skipped check (llm_judge offline) comes back as passed false with a detail starting "skipped". */
export function checkOutcome(check: WireCheck): CheckOutcome {
  if (check.passed) return "passed";
  return check.detail.startsWith("skipped") ? "skipped" : "failed";
}

/** A case with no evaluated check (none at all, or only skipped ones) is skipped, as the server counts it. */
export function caseOutcome(evalCase: { passed: boolean; checks: WireCheck[] }): CheckOutcome {
  if (evalCase.checks.every((c) => checkOutcome(c) === "skipped")) return "skipped";
  return evalCase.passed ? "passed" : "failed";
}
