import { describe, expect, it } from "vitest";
import type { Draft, DraftField } from "@/lib/domain/flows/flow-json/types";
import { validateDraft } from "@/lib/domain/flows/flow-json/validate-draft";
import { codes, everyFieldDraft } from "./drafts";

const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, title: `Option ${i}` }));
const textFields = (n: number): DraftField[] => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type: "text", label: `Field ${i}` }));
const chain = (n: number): Draft => {
  const letters = (i: number) => "S_" + String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26));
  const screens = Array.from({ length: n }, (_, i) => ({ id: letters(i), title: "Step", fields: [], ...(i < n - 1 ? { next: letters(i + 1) } : {}) }));
  return { entryScreenId: screens[0]!.id, screens };
};

/** Each row: a change to the every-field draft and exactly the [code, path] findings it must produce. */
const CASES: Array<[string, (d: Draft) => void, Array<[string, string]>]> = [
  ["entryScreenId naming no screen", (d) => void (d.entryScreenId = "START"), [["UNKNOWN_SCREEN", "/entryScreenId"]]],
  [
    "a next naming no screen (and the screen after it left unreachable)",
    (d) => void (d.screens[1]!.next = "NOWHERE"),
    [
      ["UNKNOWN_SCREEN", "/screens/1/next"],
      ["UNREACHABLE_SCREEN", "/screens/2"],
    ],
  ],
  ["two screens with one id", (d) => void d.screens.push({ id: "FINISH", title: "Again", fields: [] }), [["DUPLICATE_SCREEN", "/screens/3/id"]]],
  ["a field name used twice in the flow", (d) => void (d.screens[2]!.fields[0]!.name = "email"), [["DUPLICATE_FIELD", "/screens/2/fields/0/name"]]],
  ["a field name starting with a digit", (d) => void (d.screens[0]!.fields[0]!.name = "1st_name"), [["INVALID_FIELD_NAME", "/screens/0/fields/0/name"]]],
  ["a field name with a dash", (d) => void (d.screens[1]!.fields[1]!.name = "home-branch"), [["INVALID_FIELD_NAME", "/screens/1/fields/1/name"]]],
  ["a field named flow_token", (d) => void (d.screens[0]!.fields[3]!.name = "flow_token"), [["INVALID_FIELD_NAME", "/screens/0/fields/3/name"]]],
  [
    "the last screen going back to the first",
    (d) => void (d.screens[2]!.next = "CONTACT"),
    [
      ["NO_TERMINAL_SCREEN", "/screens"],
      ["NAVIGATION_LOOP", "/screens/2/next"],
    ],
  ],
  [
    "a screen going to itself",
    (d) => void (d.screens[1]!.next = "PREFERENCES"),
    [
      ["NAVIGATION_LOOP", "/screens/1/next"],
      ["UNREACHABLE_SCREEN", "/screens/2"],
    ],
  ],
  ["a screen nothing leads to", (d) => void d.screens.push({ id: "ORPHAN", title: "Lost", fields: [] }), [["UNREACHABLE_SCREEN", "/screens/3"]]],
  [
    "a screen id with a digit",
    (d) => {
      d.screens[2]!.id = "STEP_3";
      d.screens[1]!.next = "STEP_3";
    },
    [["INVALID_SCREEN_ID", "/screens/2/id"]],
  ],
  [
    "the reserved screen id, in any case",
    (d) => {
      d.screens[2]!.id = "Success";
      d.screens[1]!.next = "Success";
    },
    [["INVALID_SCREEN_ID", "/screens/2/id"]],
  ],
  ["51 components on a screen (49 fields, body, Footer)", (d) => void (d.screens[0]!.fields = textFields(49)), [["TOO_MANY_COMPONENTS", "/screens/0/fields"]]],
  ["a radio field with 21 options", (d) => void (d.screens[1]!.fields[2]!.options = options(21)), [["TOO_MANY_OPTIONS", "/screens/1/fields/2/options"]]],
  ["a checkbox field with 21 options", (d) => void (d.screens[1]!.fields[3]!.options = options(21)), [["TOO_MANY_OPTIONS", "/screens/1/fields/3/options"]]],
  ["a dropdown with 201 options", (d) => void (d.screens[1]!.fields[1]!.options = options(201)), [["TOO_MANY_OPTIONS", "/screens/1/fields/1/options"]]],
  ["a dropdown with no options", (d) => void (d.screens[1]!.fields[1]!.options = []), [["MISSING_OPTIONS", "/screens/1/fields/1/options"]]],
  ["a radio field without options", (d) => void delete d.screens[1]!.fields[2]!.options, [["MISSING_OPTIONS", "/screens/1/fields/2/options"]]],
  [
    "an option id used twice",
    (d) =>
      void (d.screens[1]!.fields[1]!.options = [
        { id: "north", title: "North" },
        { id: "north", title: "North again" },
      ]),
    [["DUPLICATE_OPTION", "/screens/1/fields/1/options/1/id"]],
  ],
  ["an input label of 21 characters", (d) => void (d.screens[0]!.fields[1]!.label = "x".repeat(21)), [["TEXT_TOO_LONG", "/screens/0/fields/1/label"]]],
  ["an opt-in label of 121 characters", (d) => void (d.screens[2]!.fields[1]!.label = "x".repeat(121)), [["TEXT_TOO_LONG", "/screens/2/fields/1/label"]]],
  ["a screen title of 81 characters", (d) => void (d.screens[1]!.title = "x".repeat(81)), [["TEXT_TOO_LONG", "/screens/1/title"]]],
  ["a body of 4097 characters", (d) => void (d.screens[0]!.body = "x".repeat(4097)), [["TEXT_TOO_LONG", "/screens/0/body"]]],
  ["a submit label of 36 characters", (d) => void (d.screens[0]!.submit_label = "x".repeat(36)), [["TEXT_TOO_LONG", "/screens/0/submit_label"]]],
  [
    "an option title of 31 characters",
    (d) => void (d.screens[1]!.fields[3]!.options![1]!.title = "x".repeat(31)),
    [["TEXT_TOO_LONG", "/screens/1/fields/3/options/1/title"]],
  ],
  ["helper text of 81 characters", (d) => void (d.screens[0]!.fields[0]!.helper_text = "x".repeat(81)), [["TEXT_TOO_LONG", "/screens/0/fields/0/helper_text"]]],
  ["a blank label", (d) => void (d.screens[0]!.fields[2]!.label = "   "), [["EMPTY_TEXT", "/screens/0/fields/2/label"]]],
  [
    "min_length above max_length",
    (d) => Object.assign(d.screens[0]!.fields[0]!, { min_length: 10, max_length: 5 }),
    [["INVALID_LENGTH_RANGE", "/screens/0/fields/0/min_length"]],
  ],
  ["options on a text field", (d) => void (d.screens[0]!.fields[0]!.options = options(2)), [["UNSUPPORTED_SETTING", "/screens/0/fields/0/options"]]],
  ["helper text on a dropdown", (d) => void (d.screens[1]!.fields[1]!.helper_text = "Pick one"), [["UNSUPPORTED_SETTING", "/screens/1/fields/1/helper_text"]]],
  ["min_length on a textarea", (d) => void (d.screens[2]!.fields[0]!.min_length = 3), [["UNSUPPORTED_SETTING", "/screens/2/fields/0/min_length"]]],
];

describe("validateDraft", () => {
  it("finds nothing in a draft using every field type", () => {
    expect(validateDraft(everyFieldDraft())).toEqual([]);
  });

  it.each(CASES)("reports %s", (_name, change, expected) => {
    const draft = everyFieldDraft();
    change(draft);
    expect(codes(validateDraft(draft))).toEqual(expected);
  });

  it("accepts the limits themselves: 20-character labels, 50 components, 20 radio options, 200 dropdown options", () => {
    const draft = everyFieldDraft();
    draft.screens[0]!.fields[1]!.label = "x".repeat(20);
    draft.screens[0]!.fields = [...draft.screens[0]!.fields, ...textFields(44)];
    draft.screens[1]!.fields[2]!.options = options(20);
    draft.screens[1]!.fields[1]!.options = options(200);
    draft.screens[0]!.submit_label = "x".repeat(35);
    expect(validateDraft(draft)).toEqual([]);
  });

  it("reports more than 100 screens", () => {
    expect(validateDraft(chain(100))).toEqual([]);
    expect(codes(validateDraft(chain(101)))).toEqual([["TOO_MANY_SCREENS", "/screens"]]);
  });

  it("reports a draft where every screen has a next", () => {
    const draft: Draft = {
      entryScreenId: "A",
      screens: [
        { id: "A", title: "A", fields: [], next: "B" },
        { id: "B", title: "B", fields: [], next: "A" },
      ],
    };
    expect(codes(validateDraft(draft))).toEqual([
      ["NO_TERMINAL_SCREEN", "/screens"],
      ["NAVIGATION_LOOP", "/screens/1/next"],
    ]);
  });

  it("escapes ~ and / in pointers and says what to do in plain words", () => {
    const draft = everyFieldDraft();
    draft.screens[0]!.fields[0]!.name = "a/b~c";
    const [found] = validateDraft(draft);
    expect(found).toMatchObject({ code: "INVALID_FIELD_NAME", path: "/screens/0/fields/0/name" });
    expect(found!.message).toContain("a/b~c");
    expect(found!.next_steps).not.toBe("");
  });
});
