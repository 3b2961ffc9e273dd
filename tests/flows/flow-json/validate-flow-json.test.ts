import { describe, expect, it } from "vitest";
import { compileDraft } from "@/lib/domain/flows/flow-json/compile";
import type { Draft } from "@/lib/domain/flows/flow-json/types";
import { validateFlowJson } from "@/lib/domain/flows/flow-json/validate-flow-json";
import { FIXTURES, codes, everyFieldDraft, fixture } from "./drafts";

type Obj = Record<string, any>;
const children = (json: Obj, screen: number): Obj[] => json.screens[screen].layout.children;
const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, title: `Option ${i}` }));

describe("validateFlowJson: clean flows", () => {
  it.each(FIXTURES)("finds nothing in the realistic fixture %s", (name) => {
    expect(validateFlowJson(fixture(name))).toEqual([]);
  });

  it.each(["STATIC", "DATA_EXCHANGE"] as const)("finds nothing in a compiled draft using every field type (%s)", (runtimeMode) => {
    expect(validateFlowJson(compileDraft(everyFieldDraft(), { runtimeMode }))).toEqual([]);
  });

  it.each(["STATIC", "DATA_EXCHANGE"] as const)("finds nothing in compiled drafts at the limits (%s)", (runtimeMode) => {
    const draft = everyFieldDraft();
    draft.screens[0]!.fields.push(...Array.from({ length: 44 }, (_, i) => ({ name: `extra_${i}`, type: "text" as const, label: "x".repeat(20) })));
    draft.screens[1]!.fields[1]!.options = options(200);
    draft.screens[1]!.fields[2]!.options = options(20);
    draft.screens[0]!.submit_label = "x".repeat(35);
    draft.screens[0]!.body = "x".repeat(4096);
    expect(validateFlowJson(compileDraft(draft, { runtimeMode }))).toEqual([]);
  });

  it("finds nothing in a compiled one-screen draft", () => {
    const draft: Draft = { entryScreenId: "ONLY", screens: [{ id: "ONLY", title: "Rate us", fields: [{ name: "score", type: "number", label: "Score" }] }] };
    expect(validateFlowJson(compileDraft(draft))).toEqual([]);
  });
});

/** Each row: a fixture, a change, exactly the [code, path] findings it must produce. */
const BROKEN: Array<[string, string, (j: Obj) => void, Array<[string, string]>]> = [
  ["no version", "sign-up.json", (j) => delete j.version, [["INVALID_FLOW_JSON", "/version"]]],
  ["a version the provider no longer publishes", "sign-up.json", (j) => (j.version = "2.1"), [["UNSUPPORTED_VERSION", "/version"]]],
  ["an unknown data_api_version", "loan-endpoint.json", (j) => (j.data_api_version = "2.0"), [["UNSUPPORTED_VERSION", "/data_api_version"]]],
  ["no screens", "sign-up.json", (j) => delete j.screens, [["INVALID_FLOW_JSON", "/screens"]]],
  ["a screen that is not an object", "appointment-booking.json", (j) => j.screens.push("CONFIRM"), [["INVALID_FLOW_JSON", "/screens/3"]]],
  ["a screen without a layout", "sign-up.json", (j) => delete j.screens[0].layout, [["INVALID_FLOW_JSON", "/screens/0/layout"]]],
  ["a screen id with a dash", "sign-up.json", (j) => (j.screens[0].id = "SIGN-UP"), [["INVALID_SCREEN_ID", "/screens/0/id"]]],
  ["the reserved screen id in lower case", "sign-up.json", (j) => (j.screens[0].id = "success"), [["INVALID_SCREEN_ID", "/screens/0/id"]]],
  [
    "two Footers on a screen",
    "sign-up.json",
    (j) => children(j, 0).push({ type: "Footer", label: "Again", "on-click-action": { name: "complete" } }),
    [["TOO_MANY_FOOTERS", "/screens/0/layout/children/9"]],
  ],
  [
    "an unknown component",
    "sign-up.json",
    (j) => children(j, 0).splice(1, 0, { type: "Slider", name: "x" }),
    [["UNKNOWN_COMPONENT", "/screens/0/layout/children/1/type"]],
  ],
  ["a component without a type", "sign-up.json", (j) => children(j, 0).splice(1, 0, { text: "hi" }), [["INVALID_FLOW_JSON", "/screens/0/layout/children/1"]]],
  [
    "an input without a name (its value can no longer be sent)",
    "sign-up.json",
    (j) => delete children(j, 0)[3]!.name,
    [
      ["INVALID_FLOW_JSON", "/screens/0/layout/children/3/name"],
      ["PAYLOAD_MISMATCH", "/screens/0/layout/children/8/on-click-action/payload/last_name"],
    ],
  ],
  [
    "two inputs with one name on a screen",
    "sign-up.json",
    (j) => (children(j, 0)[3]!.name = "first_name"),
    [
      ["DUPLICATE_FIELD", "/screens/0/layout/children/3/name"],
      ["PAYLOAD_MISMATCH", "/screens/0/layout/children/8/on-click-action/payload/last_name"],
    ],
  ],
  [
    "a TextHeading of 81 characters",
    "sign-up.json",
    (j) => (children(j, 0)[0]!.text = "x".repeat(81)),
    [["TEXT_TOO_LONG", "/screens/0/layout/children/0/text"]],
  ],
  [
    "a TextBody of 4097 characters",
    "sign-up.json",
    (j) => (children(j, 0)[1]!.text = "x".repeat(4097)),
    [["TEXT_TOO_LONG", "/screens/0/layout/children/1/text"]],
  ],
  ["a blank TextHeading", "sign-up.json", (j) => (children(j, 0)[0]!.text = " "), [["EMPTY_TEXT", "/screens/0/layout/children/0/text"]]],
  [
    "a Footer label of 36 characters",
    "sign-up.json",
    (j) => (children(j, 0)[8]!.label = "x".repeat(36)),
    [["TEXT_TOO_LONG", "/screens/0/layout/children/8/label"]],
  ],
  [
    "an input label of 21 characters",
    "sign-up.json",
    (j) => (children(j, 0)[4]!.label = "x".repeat(21)),
    [["TEXT_TOO_LONG", "/screens/0/layout/children/4/label"]],
  ],
  [
    "helper text of 81 characters",
    "sign-up.json",
    (j) => (children(j, 0)[4]!["helper-text"] = "x".repeat(81)),
    [["TEXT_TOO_LONG", "/screens/0/layout/children/4/helper-text"]],
  ],
  ["a screen title of 81 characters", "sign-up.json", (j) => (j.screens[0].title = "x".repeat(81)), [["TEXT_TOO_LONG", "/screens/0/title"]]],
  [
    "51 components on a screen",
    "sign-up.json",
    (j) => children(j, 0).splice(1, 0, ...Array.from({ length: 42 }, () => ({ type: "TextBody", text: "Hi" }))),
    [["TOO_MANY_COMPONENTS", "/screens/0/layout/children"]],
  ],
  [
    "a radio group with 21 options",
    "appointment-booking.json",
    (j) => (children(j, 0)[2]!["data-source"] = options(21)),
    [["TOO_MANY_OPTIONS", "/screens/0/layout/children/2/data-source"]],
  ],
  [
    "a dropdown with no options",
    "appointment-booking.json",
    (j) => (children(j, 0)[0]!["data-source"] = []),
    [["MISSING_OPTIONS", "/screens/0/layout/children/0/data-source"]],
  ],
  [
    "an option id used twice",
    "appointment-booking.json",
    (j) => (children(j, 2)[2]!["data-source"][1].id = "whatsapp"),
    [["DUPLICATE_OPTION", "/screens/2/layout/children/2/data-source/1/id"]],
  ],
  [
    "an option title of 31 characters",
    "appointment-booking.json",
    (j) => (children(j, 0)[0]!["data-source"][2].title = "x".repeat(31)),
    [["TEXT_TOO_LONG", "/screens/0/layout/children/0/data-source/2/title"]],
  ],
  ["no terminal screen", "appointment-booking.json", (j) => (j.screens[2].terminal = false), [["NO_TERMINAL_SCREEN", "/screens"]]],
  ["a terminal screen without a Footer", "sign-up.json", (j) => children(j, 0).pop(), [["MISSING_FOOTER", "/screens/0/layout/children"]]],
  ["a screen with no way forward", "appointment-booking.json", (j) => children(j, 1).pop(), [["MISSING_FOOTER", "/screens/1/layout/children"]]],
  [
    "a terminal screen whose Footer navigates",
    "appointment-booking.json",
    (j) => (children(j, 2)[3]!["on-click-action"] = { name: "navigate", next: { type: "screen", name: "APPOINTMENT" } }),
    [
      ["TERMINAL_WITHOUT_COMPLETE", "/screens/2/layout/children/3/on-click-action"],
      ["NAVIGATION_LOOP", "/screens/2/layout/children/3/on-click-action/next/name"],
    ],
  ],
  [
    "a navigate to no screen",
    "appointment-booking.json",
    (j) => (children(j, 0)[3]!["on-click-action"].next.name = "DETAIL"),
    [["UNKNOWN_SCREEN", "/screens/0/layout/children/3/on-click-action/next/name"]],
  ],
  [
    "a navigate without next",
    "appointment-booking.json",
    (j) => delete children(j, 0)[3]!["on-click-action"].next,
    [["INVALID_FLOW_JSON", "/screens/0/layout/children/3/on-click-action/next"]],
  ],
  [
    "an unknown action",
    "sign-up.json",
    (j) => (children(j, 0)[8]!["on-click-action"].name = "submit"),
    [
      ["INVALID_FLOW_JSON", "/screens/0/layout/children/8/on-click-action/name"],
      ["TERMINAL_WITHOUT_COMPLETE", "/screens/0/layout/children/8/on-click-action"],
    ],
  ],
  [
    "navigation back to an earlier screen",
    "appointment-booking.json",
    (j) => (children(j, 1)[4]!["on-click-action"] = { name: "navigate", next: { type: "screen", name: "APPOINTMENT" }, payload: {} }),
    [["NAVIGATION_LOOP", "/screens/1/layout/children/4/on-click-action/next/name"]],
  ],
  [
    "a navigate payload missing a declared value",
    "appointment-booking.json",
    (j) => delete children(j, 0)[3]!["on-click-action"].payload.time,
    [["PAYLOAD_MISMATCH", "/screens/0/layout/children/3/on-click-action/payload"]],
  ],
  [
    "a navigate payload with an undeclared value",
    "appointment-booking.json",
    (j) => (children(j, 0)[3]!["on-click-action"].payload.promo = "SPRING"),
    [["PAYLOAD_MISMATCH", "/screens/0/layout/children/3/on-click-action/payload/promo"]],
  ],
  [
    "a payload naming no input",
    "sign-up.json",
    (j) => (children(j, 0)[8]!["on-click-action"].payload.email = "${form.e_mail}"),
    [["PAYLOAD_MISMATCH", "/screens/0/layout/children/8/on-click-action/payload/email"]],
  ],
  [
    "a payload naming undeclared data",
    "appointment-booking.json",
    (j) => delete j.screens[2].data.notes,
    [
      ["PAYLOAD_MISMATCH", "/screens/1/layout/children/4/on-click-action/payload/notes"],
      ["PAYLOAD_MISMATCH", "/screens/2/layout/children/3/on-click-action/payload/notes"],
    ],
  ],
  [
    "a data declaration without an example",
    "appointment-booking.json",
    (j) => delete j.screens[1].data.date.__example__,
    [["INVALID_FLOW_JSON", "/screens/1/data/date"]],
  ],
  [
    "data_exchange without an endpoint",
    "loan-endpoint.json",
    (j) => {
      delete j.data_api_version;
      delete j.routing_model;
    },
    [
      ["INVALID_FLOW_JSON", "/screens/0/layout/children/3/on-click-action/name"],
      ["INVALID_FLOW_JSON", "/screens/1/layout/children/1/on-click-action/name"],
    ],
  ],
  ["a routing_model naming no screen", "loan-endpoint.json", (j) => (j.routing_model.OFFER = ["APPLY_NOW"]), [["UNKNOWN_SCREEN", "/routing_model/OFFER/0"]]],
  ["a routing_model loop", "loan-endpoint.json", (j) => (j.routing_model.APPLY = ["ELIGIBILITY"]), [["NAVIGATION_LOOP", "/routing_model/APPLY/0"]]],
];

describe("validateFlowJson: broken flows", () => {
  it.each(BROKEN)("reports %s", (_name, file, change, expected) => {
    const json = fixture(file) as Obj;
    change(json);
    expect(codes(validateFlowJson(json))).toEqual(expected);
  });

  it("reports a Flow JSON that is not an object at the root pointer", () => {
    expect(codes(validateFlowJson([]))).toEqual([["INVALID_FLOW_JSON", ""]]);
    expect(codes(validateFlowJson("{}"))).toEqual([["INVALID_FLOW_JSON", ""]]);
  });

  it("reports a duplicated screen id once, at the second screen", () => {
    const json = fixture("sign-up.json") as Obj;
    json.screens.push(structuredClone(json.screens[0]));
    expect(codes(validateFlowJson(json))).toEqual([["DUPLICATE_SCREEN", "/screens/1/id"]]);
  });

  it("skips the length of texts bound to data", () => {
    const json = fixture("appointment-booking.json") as Obj;
    expect(children(json, 2)[1]!.text.startsWith("${data.")).toBe(true);
    children(json, 2)[1]!.text = "${data." + "x".repeat(5000) + "}";
    expect(validateFlowJson(json)).toEqual([]);
  });

  it("accepts a read-more screen an OptIn opens, without a Footer of its own", () => {
    const json = fixture("sign-up.json") as Obj;
    children(json, 0)[7]!["on-click-action"] = { name: "navigate", next: { type: "screen", name: "TERMS" }, payload: {} };
    json.screens.push({
      id: "TERMS",
      title: "Terms",
      layout: { type: "SingleColumnLayout", children: [{ type: "TextBody", text: "We write to you at most once a week." }] },
    });
    expect(validateFlowJson(json)).toEqual([]);
  });

  it("reads components nested in a Form", () => {
    const json = fixture("sign-up.json") as Obj;
    const inputs = children(json, 0).splice(2, 6);
    children(json, 0).splice(2, 0, { type: "Form", name: "form", children: inputs });
    expect(validateFlowJson(json)).toEqual([]);
    inputs[0]!.label = "x".repeat(21);
    expect(codes(validateFlowJson(json))).toEqual([["TEXT_TOO_LONG", "/screens/0/layout/children/2/children/0/label"]]);
  });
});
