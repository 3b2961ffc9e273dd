import { describe, expect, it } from "vitest";
import { activeEffect, deleteEffect, moveEffect, saveEffect } from "@/components/automations/model/effects";
import { evaluationHeadline, inPriorityOrder, nextStepFor, RESULT_COPY } from "@/components/automations/model/evaluation-words";
import { durationLabel, stepStatusCopy, stepsWithBefore, variableChanges } from "@/components/automations/model/run-steps";
import { configIssuesOf, writeFailure } from "@/components/automations/model/write-errors";
import { ApiError } from "@/lib/client/api";
import type { AutomationConsidered } from "@/lib/client/automations-runs";

/**
 * The builder's words: what a write does to live traffic (shown before it), a refused write with its
 * next step, the evaluation of a message, and a run's steps.
 */

const entry = {
  key: "order",
  name: "Order",
  active: true,
  trigger: { type: "KEYWORD" as const, match_mode: "EXACT" as const, keywords: ["order"] },
  steps: [{ send_reply: { text: "Hi" } }, { delay: { minutes: 5 } }],
};

describe("what a write does to live traffic", () => {
  it("says when saving starts, keeps or stops answering customers", () => {
    expect(saveEffect(entry, null)).toBe(
      "Once created, “Order” answers live customers at once. When a message is exactly 'order', it runs 2 steps. Only where routing is Flows; never while a person has the conversation.",
    );
    expect(saveEffect(entry, { active: false })).toMatch(/^This switches “Order” on: it starts answering live customers\./);
    expect(saveEffect(entry, { active: true })).toMatch(/^“Order” is on: the change applies to the next message at once\./);
    expect(saveEffect({ ...entry, active: false }, { active: true })).toMatch(/^This switches “Order” off/);
    expect(saveEffect({ ...entry, active: false }, null)).toBe("“Order” is off: saving changes nothing customers see until it is switched on.");
  });

  it("words switching, deleting and moving", () => {
    expect(activeEffect(entry, true)).toContain("it starts answering live customers");
    expect(activeEffect(entry, false)).toContain("new messages no longer start it");
    expect(deleteEffect(entry)).toContain("A config document that still lists it would create it again.");
    expect(moveEffect(entry, 2, 0, 3)).toMatch(/^“Order” moves from number 3 to first\./);
    expect(moveEffect(entry, 0, 1, 3)).toMatch(/to number 2 of 3\./);
  });
});

describe("a refused write", () => {
  const refused = (status: number, body: Record<string, unknown>) =>
    new ApiError({ status, code: String(body.error ?? `http_${status}`), message: String(body.message ?? "refused"), body });

  it("hands the 422's config_issues to the builder and counts the errors", () => {
    const error = refused(422, {
      error: "config_invalid",
      message: "The automation has 1 error(s)",
      issues: { "steps.0.send_reply.text": ["Too small"] },
      config_issues: [
        { path: "steps.0.send_reply.text", message: "Too small", severity: "error" },
        { path: "", message: "Stored, will not fire", severity: "warning" },
      ],
    });
    expect(configIssuesOf(error)).toHaveLength(2);
    const failure = writeFailure(error, "saved");
    expect(failure.issues?.[0]?.path).toBe("steps.0.send_reply.text");
    expect(failure.message).toBe("Not saved: 1 problem to fix, marked on the fields. Fix them, then try again.");
  });

  it("says what to do next for every other refusal", () => {
    expect(writeFailure(new ApiError({ status: 0, code: "network_error", message: "x" }), "saved").message).toMatch(/check your connection/i);
    expect(writeFailure(refused(403, { error: "insufficient_scope" }), "deleted").message).toMatch(/Ask a developer or an admin/);
    expect(writeFailure(refused(404, { error: "not_found" }), "moved").message).toMatch(/reload it/);
    expect(writeFailure(refused(500, {}), "saved").message).toMatch(/try again in a moment/);
    expect(writeFailure(refused(422, { error: "validation_error", message: "key cannot change: rename it in the config document." }), "saved").message).toBe(
      "Not saved: key cannot change: rename it in the config document.",
    );
  });
});

describe("the evaluation of a message", () => {
  const row = (over: Partial<AutomationConsidered>): AutomationConsidered => ({
    automation_id: "a",
    key: "a",
    name: "A",
    position: 0,
    active: true,
    trigger_type: "KEYWORD",
    result: "not_matched",
    reason: "keyword_not_matched",
    detail: "",
    ...over,
  });
  const base = { decided_at: "2026-01-01T00:00:00Z", reason: null, routing_mode: "FLOWS" as const };

  it("heads with what ran, or why nothing did", () => {
    expect(evaluationHeadline({ ...base, outcome: "started", automations: [row({ name: "Order", result: "ran" })] })).toBe("“Order” ran");
    expect(evaluationHeadline({ ...base, outcome: "resumed", automations: [row({ name: "Order", result: "ran" })] })).toMatch(/waiting run of “Order”/);
    expect(evaluationHeadline({ ...base, outcome: "none", automations: [row({})] })).toBe("No automation ran: none matched");
    expect(evaluationHeadline({ ...base, outcome: "none", reason: "routing_not_flows" as const, routing_mode: "EXTERNAL" as const, automations: [] })).toBe(
      "No automation ran: routing is EXTERNAL, not Flows",
    );
    expect(evaluationHeadline({ ...base, decided_at: null, outcome: "none", automations: [] })).toMatch(/Not decided yet/);
  });

  it("orders by priority and gives each reason a next step", () => {
    expect(inPriorityOrder([row({ key: "b", position: 1 }), row({ key: "a", position: 0 })]).map((r) => r.key)).toEqual(["a", "b"]);
    for (const reason of ["routing_not_flows", "handoff_on", "inactive", "keyword_not_matched", "earlier_match", "run_waiting"]) {
      expect(nextStepFor(reason)).toBeTruthy();
    }
    expect(nextStepFor("something_new")).toBeNull();
    expect(RESULT_COPY.ran.tone).toBe("success");
  });
});

describe("a run's steps", () => {
  it("words durations and statuses", () => {
    expect(durationLabel(85)).toBe("85 ms");
    expect(durationLabel(1234)).toBe("1.2 s");
    expect(durationLabel(250_000)).toBe("4 min 10 s");
    expect(durationLabel(2 * 3_600_000 + 5 * 60_000)).toBe("2 h 5 min");
    expect(durationLabel(null)).toBe("—");
    expect(stepStatusCopy("completed").label).toBe("Done");
    expect(stepStatusCopy("timed_out").label).toBe("Timed out");
    expect(stepStatusCopy("some_state").label).toBe("some state");
  });

  it("marks the variables a step set or changed", () => {
    expect(variableChanges({ a: 1, b: 2 }, { a: 1 })).toEqual([
      { name: "a", value: 1, changed: false },
      { name: "b", value: 2, changed: true },
    ]);
    const step = (index: number, vars: Record<string, unknown>) => ({
      index,
      type: "send_reply" as const,
      status: "completed" as const,
      started_at: `2026-01-01T00:00:0${index}Z`,
      ended_at: null,
      duration_ms: 1,
      variables_after: vars,
      message_id: null,
      invocation_id: null,
      error: null,
    });
    const ordered = stepsWithBefore([step(1, { x: 2 }), step(0, { x: 1 })]);
    expect(ordered.map((s) => s.step.index)).toEqual([0, 1]);
    expect(ordered[1]!.before).toEqual({ x: 1 });
  });
});
