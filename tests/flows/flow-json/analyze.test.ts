import { describe, expect, it } from "vitest";
import { analyzeFlow, publishable } from "@/lib/domain/flows/flow-json/analyze";
import { compileDraft } from "@/lib/domain/flows/flow-json/compile";
import { fieldSchemaOfDraft } from "@/lib/domain/flows/flow-json/field-schema";
import { optionIdsOf, screenIdsOf } from "@/lib/domain/flows/flow-json/screens";
import { codes, everyFieldDraft, fixture } from "./drafts";

type Obj = Record<string, any>;

describe("analyzeFlow: a draft", () => {
  it("compiles a clean draft: Flow JSON, field schema, no findings, publishable", () => {
    const analysis = analyzeFlow({ draft: everyFieldDraft() });
    expect(analysis.flow_json).toEqual(compileDraft(everyFieldDraft()));
    expect(analysis.field_schema).toEqual(fieldSchemaOfDraft(everyFieldDraft()));
    expect(analysis.validation_errors).toEqual([]);
    expect(publishable(analysis)).toBe(true);
  });

  it("compiles for the runtime mode it is given", () => {
    const analysis = analyzeFlow({ draft: everyFieldDraft() }, { runtimeMode: "DATA_EXCHANGE" });
    expect(analysis.flow_json).toMatchObject({ data_api_version: "3.0" });
    expect(publishable(analysis)).toBe(true);
  });

  it("still compiles a draft whose findings leave its navigation intact, with findings pointing into the draft", () => {
    const draft = everyFieldDraft();
    draft.screens[0]!.fields[0]!.label = "x".repeat(21);
    const analysis = analyzeFlow({ draft });
    expect(analysis.flow_json).not.toBeNull();
    expect(analysis.field_schema).toHaveLength(10);
    expect(codes(analysis.validation_errors)).toEqual([["TEXT_TOO_LONG", "/screens/0/fields/0/label"]]);
    expect(publishable(analysis)).toBe(false);
  });

  it.each([
    ["a loop", (d: Obj) => (d.screens[2].next = "CONTACT")],
    ["an unknown next", (d: Obj) => (d.screens[0].next = "NOPE")],
    ["a duplicate field", (d: Obj) => (d.screens[2].fields[0].name = "email")],
    ["an unreachable screen", (d: Obj) => d.screens.push({ id: "ORPHAN", title: "Lost", fields: [] })],
  ])("does not compile a draft with %s", (_name, change) => {
    const draft = everyFieldDraft();
    change(draft as Obj);
    const analysis = analyzeFlow({ draft });
    expect(analysis.flow_json).toBeNull();
    expect(analysis.field_schema).toBeNull();
    expect(analysis.validation_errors.length).toBeGreaterThan(0);
    expect(publishable(analysis)).toBe(false);
  });
});

describe("analyzeFlow: a given Flow JSON", () => {
  it("keeps it as is, with its field schema and no findings when clean", () => {
    const json = fixture("appointment-booking.json");
    const analysis = analyzeFlow({ flow_json: json });
    expect(analysis.flow_json).toBe(json);
    expect(analysis.field_schema).toHaveLength(7);
    expect(analysis.validation_errors).toEqual([]);
    expect(publishable(analysis)).toBe(true);
  });

  it("reports findings that point into the Flow JSON", () => {
    const json = fixture("sign-up.json") as Obj;
    json.version = "9.9";
    const analysis = analyzeFlow({ flow_json: json });
    expect(codes(analysis.validation_errors)).toEqual([["UNSUPPORTED_VERSION", "/version"]]);
    expect(publishable(analysis)).toBe(false);
  });

  it("checks the Flow JSON against the runtime mode", () => {
    expect(codes(analyzeFlow({ flow_json: fixture("loan-endpoint.json") }).validation_errors)).toEqual([["INVALID_FLOW_JSON", "/data_api_version"]]);
    expect(analyzeFlow({ flow_json: fixture("loan-endpoint.json") }, { runtimeMode: "DATA_EXCHANGE" }).validation_errors).toEqual([]);
    expect(codes(analyzeFlow({ flow_json: fixture("sign-up.json") }, { runtimeMode: "DATA_EXCHANGE" }).validation_errors)).toEqual([
      ["INVALID_FLOW_JSON", "/data_api_version"],
      ["INVALID_FLOW_JSON", "/routing_model"],
    ]);
  });
});

describe("screens", () => {
  it("lists the screen ids in order", () => {
    expect(screenIdsOf(fixture("appointment-booking.json"))).toEqual(["APPOINTMENT", "DETAILS", "CONFIRM"]);
    expect(screenIdsOf({ version: "7.3" })).toEqual([]);
  });

  it("lists the option ids of a selection input by name, on any screen", () => {
    const json = fixture("appointment-booking.json");
    expect(optionIdsOf(json, "department")).toEqual(["dental", "eyes", "skin"]);
    expect(optionIdsOf(json, "reminders")).toEqual(["whatsapp", "email"]);
    expect(optionIdsOf(compileDraft(everyFieldDraft()), "party_size")).toEqual(["one", "two", "more"]);
  });

  it("is null for options bound to data, for inputs without options and for unknown names", () => {
    expect(optionIdsOf(fixture("loan-endpoint.json"), "offer")).toBeNull();
    expect(optionIdsOf(fixture("appointment-booking.json"), "name")).toBeNull();
    expect(optionIdsOf(fixture("appointment-booking.json"), "nothing")).toBeNull();
  });
});
