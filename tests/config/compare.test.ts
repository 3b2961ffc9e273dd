import { describe, expect, it } from "vitest";
import { Draft as ApiDraft } from "@/lib/api/schemas/flows";
import { DRAFT } from "@/lib/api/openapi-examples/flows-fixtures";
import { jsonEqual, movedIndexes } from "@/lib/domain/config/compare";
import { draftSchema } from "@/lib/domain/config/flow-entry";
import { flowIdentity } from "@/lib/domain/config/desired";
import { pointerPath } from "@/lib/domain/config/issues";
import { signupDraft } from "../flows/support";

describe("comparison by value", () => {
  it("ignores key order and absent-vs-undefined keys, not values", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: null }, { a: 0 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });

  it("a move is the fewest automations outside the longest run that kept its order", () => {
    expect([...movedIndexes([0, 1, 2, 3])]).toEqual([]);
    expect([...movedIndexes([3, 0, 1, 2])]).toEqual([0]);
    expect([...movedIndexes([0, 3, 1, 2])]).toEqual([1]);
    // Positions with gaps (a deletion before them) are no move at all.
    expect([...movedIndexes([1, 2, 5])]).toEqual([]);
    expect(movedIndexes([2, 1, 0]).size).toBe(2);
  });
});

describe("names and paths", () => {
  it("a flow variant is key or key@locale; a finding's pointer becomes a dotted path", () => {
    expect(flowIdentity("welcome", null)).toBe("welcome");
    expect(flowIdentity("welcome", "pt-BR")).toBe("welcome@pt-BR");
    expect(pointerPath("flows.3.draft", "/screens/1/fields/0/name")).toBe("flows.3.draft.screens.1.fields.0.name");
    expect(pointerPath("flows.3.flow_json", "")).toBe("flows.3.flow_json");
  });
});

describe("the config draft and POST /flows' draft", () => {
  it("accept the same drafts; the config one refuses unknown keys the API would drop", () => {
    for (const draft of [DRAFT, signupDraft()]) {
      expect(ApiDraft.safeParse(draft).success).toBe(true);
      expect(draftSchema.parse(draft)).toEqual(ApiDraft.parse(draft));
    }
    const typo = { ...signupDraft(), screens: [{ ...signupDraft().screens[1]!, requred: true }] };
    expect(ApiDraft.safeParse(typo).success).toBe(true);
    expect(draftSchema.safeParse(typo).success).toBe(false);
  });
});
