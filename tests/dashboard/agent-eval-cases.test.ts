import { describe, expect, it } from "vitest";
import { buildEvalCases, caseOutcome, checkOutcome, draftFromCase, emptyCase, parseEvalJson, type EvalCaseDraft } from "@/components/agent/model/eval-cases";
import { AgentEvalRequest } from "@/lib/api/schemas/agent-threads";
import { judge, outcomeOf, type Check, type Expect } from "@/lib/domain/agents/test-eval";

/**
 * The eval runner's cases: rows → the request's cases (checked with the API's own schema), pasted JSON,
 * and the outcome shown per case/check agrees with the server's (lib/domain/agents/test-eval.ts judge,
 * outcomeOf) once the wire has dropped the `skipped` flag.
 */
const row = (patch: Partial<EvalCaseDraft>): EvalCaseDraft => ({ ...emptyCase(0), ...patch });
const request = (cases: unknown[]) => AgentEvalRequest.safeParse({ business_agent_id: "ba_1", scenario: { cases } });
const onTheWire = (checks: Check[]) => checks.map(({ check, passed, detail }) => ({ check, passed, detail }));

describe("building eval cases from rows", () => {
  it("turns each expectation into the request's keys, one phrase a line, and the API accepts them", () => {
    const { cases, errors } = buildEvalCases([
      row({ name: "faq", input: "opening hours?", contains: "9am\n\n 5pm ", weight: "2" }),
      row({ name: "order", input: "where is my order", tool_called: "order_status, lookup", not_contains: "sorry" }),
      row({ name: "human", input: "a human please", handoff: "yes", silent: "no" }),
    ]);
    expect(errors).toEqual({});
    expect(cases).toEqual([
      { name: "faq", input: "opening hours?", expect: { contains: ["9am", "5pm"] }, weight: 2 },
      { name: "order", input: "where is my order", expect: { not_contains: "sorry", tool_called: ["order_status", "lookup"] } },
      { name: "human", input: "a human please", expect: { handoff: true, silent: false } },
    ]);
    expect(request(cases).success).toBe(true);
  });

  it("leaves an unchecked row's expect empty (the server then skips the case)", () => {
    const { cases } = buildEvalCases([row({ name: "nothing", input: "hi" })]);
    expect(cases[0]?.expect).toEqual({});
    expect(request(cases).success).toBe(true);
  });

  it("reports a missing or repeated name and a bad weight on their rows, and builds nothing from them", () => {
    const { cases, errors } = buildEvalCases([
      row({ name: " " }),
      row({ name: "a" }),
      row({ name: "a" }),
      row({ name: "b", weight: "0" }),
      row({ name: "c", weight: "x" }),
    ]);
    expect(Object.keys(errors).map(Number)).toEqual([0, 2, 3, 4]);
    expect(errors[2]).toMatch(/already named/);
    expect(cases.map((c) => c.name)).toEqual(["a"]);
  });

  it("refuses more than 50 cases", () => {
    const many = Array.from({ length: 51 }, (_, i) => row({ name: `c${i}` }));
    expect(buildEvalCases(many).errors[50]).toMatch(/At most 50/);
  });

  it("round-trips a case through the row", () => {
    const original = { name: "x", input: "hi", expect: { contains: ["a", "b"], tool_called: "t", handoff: false }, weight: 3 };
    expect(buildEvalCases([draftFromCase(original)]).cases[0]).toEqual(original);
  });
});

describe("pasted JSON", () => {
  it("takes an array of cases or a scenario with cases", () => {
    const cases = [{ name: "a", input: "hi", expect: { silent: true } }];
    expect(parseEvalJson(JSON.stringify(cases))).toEqual({ cases });
    expect(parseEvalJson(JSON.stringify({ cases }))).toEqual({ cases });
  });

  it("says what is wrong with anything else", () => {
    expect(parseEvalJson("{nope")).toHaveProperty("error", expect.stringMatching(/Not valid JSON/));
    expect(parseEvalJson('{"x": 1}')).toHaveProperty("error", expect.stringMatching(/cases/));
    expect(parseEvalJson("[]")).toHaveProperty("error", expect.stringMatching(/at least one/));
    expect(parseEvalJson("[1]")).toHaveProperty("error", expect.stringMatching(/object/));
    expect(parseEvalJson(JSON.stringify(Array.from({ length: 51 }, () => ({}))))).toHaveProperty("error", expect.stringMatching(/At most 50/));
  });
});

describe("outcomes shown agree with the server's", () => {
  const transcript = { replies: ["We open at 9am."], toolCalls: [], handoff: false };
  const cases: Expect[] = [
    { contains: "9am" },
    { contains: "9am", handoff: true },
    { llm_judge: "polite" },
    {},
    { contains: "9am", llm_judge: "polite" },
    { silent: false, not_contains: "sorry" },
  ];

  it.each(cases.map((e) => [JSON.stringify(e), e] as const))("%s", (_, expectation) => {
    const checks = judge(expectation, transcript);
    const server = outcomeOf(checks);
    const wire = onTheWire(checks);
    expect(caseOutcome({ passed: server === "passed", checks: wire })).toBe(server);
    checks.forEach((check, i) => expect(checkOutcome(wire[i]!)).toBe(check.skipped ? "skipped" : check.passed ? "passed" : "failed"));
  });
});
