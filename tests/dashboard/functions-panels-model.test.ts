import { describe, expect, it } from "vitest";
import { errorRate } from "@/components/functions/model/error-rate";
import { describeReferences } from "@/components/functions/model/references";
import { parseArguments, parseInputSchema, testContact } from "@/components/functions/model/run-input";
import { slugFromName, slugProblem } from "@/components/functions/model/slug";
import { runBlocker } from "@/components/functions/test/run-blocker";
import { FunctionCreateRequest, FunctionInvokeRequest, FunctionTestRequest } from "@/lib/api/schemas/functions";

/**
 * The functions pages' pure rules: the list's error rate, the create dialog's slug, the Run panel's
 * input checks (each agreeing with the API's own request schema), when a run is possible, and how a
 * 409 function_in_use names what uses the function.
 */

const stat = (invocations_24h: number, errors_24h: number) => ({ function_id: "fn_1", invocations_24h, errors_24h, last_invoked_at: null });

describe("the list's error rate", () => {
  it("says there were no runs rather than 0% when nothing ran", () => {
    expect(errorRate(undefined)).toMatchObject({ label: "No runs", tone: "neutral" });
    expect(errorRate(stat(0, 0))).toMatchObject({ label: "No runs", tone: "neutral" });
  });

  it("rounds to a percentage, never shows a failure as 0%, and turns danger from 10%", () => {
    expect(errorRate(stat(40, 0))).toEqual({ label: "0%", detail: "0 of 40 runs failed in the last 24 hours", tone: "success" });
    expect(errorRate(stat(1000, 1))).toMatchObject({ label: "<1%", tone: "warning" });
    expect(errorRate(stat(100, 9))).toMatchObject({ label: "9%", tone: "warning" });
    expect(errorRate(stat(10, 1))).toMatchObject({ label: "10%", tone: "danger" });
    expect(errorRate(stat(1, 1))).toMatchObject({ label: "100%", detail: "1 of 1 run failed in the last 24 hours", tone: "danger" });
  });
});

describe("the create dialog's slug", () => {
  it("is suggested from the name in the API's slug shape", () => {
    for (const [name, slug] of [
      ["Order status!", "order-status"],
      ["  Café   Crème ", "cafe-creme"],
      ["2024 report", "report"],
      ["a".repeat(80), "a".repeat(64)],
    ] as const) {
      expect(slugFromName(name)).toBe(slug);
      expect(FunctionCreateRequest.safeParse({ slug, name, trigger_type: "KEYWORD" }).success).toBe(true);
    }
  });

  it("is refused exactly where the API refuses it", () => {
    for (const slug of ["", "Order", "1abc", "order_status", "a".repeat(65), "order-status", "a", "a-1"]) {
      const apiAccepts = FunctionCreateRequest.safeParse({ slug, name: "x", trigger_type: "KEYWORD" }).success;
      expect(slugProblem(slug) === undefined, slug).toBe(apiAccepts);
    }
  });
});

describe("the Run panel's input", () => {
  it("takes a JSON object as arguments (empty is {}) and says what is wrong otherwise", () => {
    expect(parseArguments("  ")).toEqual({ ok: true, value: {} });
    expect(parseArguments('{"city": "Lisbon"}')).toEqual({ ok: true, value: { city: "Lisbon" } });
    expect(parseArguments("[1]")).toMatchObject({ ok: false, error: expect.stringMatching(/must be a JSON object/) });
    expect(parseArguments("null")).toMatchObject({ ok: false });
    expect(parseArguments("{city:")).toMatchObject({ ok: false, error: expect.stringMatching(/^Not valid JSON/) });
    const parsed = parseArguments('{"n": 1}');
    if (parsed.ok) expect(FunctionInvokeRequest.safeParse({ arguments: parsed.value }).success).toBe(true);
  });

  it("sends a test contact only with both id and phone, as the API requires", () => {
    expect(testContact({ id: "", phone: " ", name: "" })).toEqual({ ok: true, value: undefined });
    expect(testContact({ id: "ct_1", phone: "", name: "" })).toMatchObject({ ok: false, field: "phone" });
    expect(testContact({ id: "", phone: "+15550001", name: "Ada" })).toMatchObject({ ok: false, field: "id" });
    const both = testContact({ id: " ct_1 ", phone: "+15550001", name: "" });
    expect(both).toEqual({ ok: true, value: { id: "ct_1", phone: "+15550001" } });
    if (both.ok) expect(FunctionTestRequest.safeParse({ text: "hi", contact: both.value }).success).toBe(true);
    expect(testContact({ id: "ct_1", phone: "+15550001", name: "Ada" })).toEqual({ ok: true, value: { id: "ct_1", phone: "+15550001", name: "Ada" } });
  });

  it("reads an empty input_schema as null (clear) and anything else as a JSON object", () => {
    expect(parseInputSchema("")).toEqual({ ok: true, value: null });
    expect(parseInputSchema('{"type": "object"}')).toEqual({ ok: true, value: { type: "object" } });
    expect(parseInputSchema('"object"')).toMatchObject({ ok: false, error: expect.stringMatching(/^The schema must be a JSON object/) });
  });

  it("runs only a deployed, active function, for a role that may write", () => {
    expect(runBlocker({ active_version_id: "ver_1", is_active: true }, true)).toBeNull();
    expect(runBlocker({ active_version_id: null, is_active: true }, true)).toMatch(/Deploy the function first/);
    expect(runBlocker({ active_version_id: "ver_1", is_active: false }, true)).toMatch(/inactive/);
    expect(runBlocker({ active_version_id: "ver_1", is_active: true }, false)).toMatch(/role/);
  });
});

describe("a refused delete's references", () => {
  it("name each user of the function by type and name, key or id, whatever the item's shape", () => {
    expect(
      describeReferences([
        { type: "automation", id: "aut_1", name: "Welcome" },
        { type: "agent_tool", id: "tool_1" },
        { type: "automation", key: "orders" },
        "flow lead_capture",
        42,
        null,
      ]),
    ).toEqual(["automation Welcome", "agent tool tool_1", "automation orders", "flow lead_capture"]);
    expect(describeReferences(undefined)).toEqual([]);
  });
});
