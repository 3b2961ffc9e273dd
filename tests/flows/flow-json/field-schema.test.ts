import { describe, expect, it } from "vitest";
import { compileDraft } from "@/lib/domain/flows/flow-json/compile";
import { fieldSchemaOfDraft, fieldSchemaOfFlowJson } from "@/lib/domain/flows/flow-json/field-schema";
import { everyFieldDraft, fixture } from "./drafts";

type Obj = Record<string, any>;

const EVERY_FIELD_SCHEMA = [
  { name: "full_name", type: "text", required: true, screen: "CONTACT" },
  { name: "email", type: "email", required: true, screen: "CONTACT" },
  { name: "phone", type: "phone", required: false, screen: "CONTACT" },
  { name: "age", type: "number", required: false, screen: "CONTACT" },
  { name: "visit_date", type: "date", required: true, screen: "PREFERENCES" },
  { name: "branch", type: "dropdown", required: true, screen: "PREFERENCES" },
  { name: "party_size", type: "radio", required: false, screen: "PREFERENCES" },
  { name: "extras", type: "checkbox", required: false, screen: "PREFERENCES" },
  { name: "comments", type: "textarea", required: false, screen: "FINISH" },
  { name: "marketing", type: "optin", required: true, screen: "FINISH" },
];

describe("fieldSchemaOfDraft", () => {
  it("lists every field with its type, required and screen, in navigation order", () => {
    const draft = everyFieldDraft();
    draft.screens.reverse();
    expect(fieldSchemaOfDraft(draft)).toEqual(EVERY_FIELD_SCHEMA);
  });
});

describe("fieldSchemaOfFlowJson", () => {
  it.each(["STATIC", "DATA_EXCHANGE"] as const)("derives the same schema from a compiled draft as from the draft (%s)", (runtimeMode) => {
    expect(fieldSchemaOfFlowJson(compileDraft(everyFieldDraft(), { runtimeMode }))).toEqual(EVERY_FIELD_SCHEMA);
  });

  it("reads a one-screen form from its complete payload", () => {
    expect(fieldSchemaOfFlowJson(fixture("sign-up.json"))).toEqual([
      { name: "first_name", type: "text", required: true, screen: "SIGN_UP" },
      { name: "last_name", type: "text", required: true, screen: "SIGN_UP" },
      { name: "email", type: "email", required: true, screen: "SIGN_UP" },
      { name: "phone", type: "phone", required: false, screen: "SIGN_UP" },
      { name: "birthday", type: "date", required: false, screen: "SIGN_UP" },
      { name: "marketing", type: "optin", required: false, screen: "SIGN_UP" },
    ]);
  });

  it("follows ${data.x} back through navigate payloads to the screen whose input it came from", () => {
    expect(fieldSchemaOfFlowJson(fixture("appointment-booking.json"))).toEqual([
      { name: "department", type: "dropdown", required: true, screen: "APPOINTMENT" },
      { name: "date", type: "date", required: true, screen: "APPOINTMENT" },
      { name: "time", type: "radio", required: true, screen: "APPOINTMENT" },
      { name: "name", type: "text", required: true, screen: "DETAILS" },
      { name: "email", type: "email", required: true, screen: "DETAILS" },
      { name: "notes", type: "textarea", required: false, screen: "DETAILS" },
      { name: "reminders", type: "checkbox", required: false, screen: "CONFIRM" },
    ]);
  });

  it("follows data through data_exchange payloads along the routing_model in endpoint flows", () => {
    expect(fieldSchemaOfFlowJson(fixture("loan-endpoint.json"))).toEqual([
      { name: "monthly_income", type: "number", required: true, screen: "ELIGIBILITY" },
      { name: "employment", type: "radio", required: true, screen: "ELIGIBILITY" },
      { name: "offer", type: "dropdown", required: true, screen: "OFFER" },
      { name: "full_name", type: "text", required: true, screen: "APPLY" },
      { name: "terms", type: "optin", required: true, screen: "APPLY" },
    ]);
  });

  it("keys the schema by the payload key and makes a value it cannot follow optional text on the terminal screen", () => {
    const json = fixture("sign-up.json") as Obj;
    const payload = json.screens[0].layout.children[8]["on-click-action"].payload;
    payload.contact_email = payload.email;
    payload.source = "whatsapp";
    const schema = fieldSchemaOfFlowJson(json)!;
    expect(schema.find((f) => f.name === "contact_email")).toEqual({ name: "contact_email", type: "email", required: true, screen: "SIGN_UP" });
    expect(schema.at(-1)).toEqual({ name: "source", type: "text", required: false, screen: "SIGN_UP" });
  });

  it("maps password and passcode inputs to text", () => {
    const json = fixture("sign-up.json") as Obj;
    json.screens[0].layout.children[3]["input-type"] = "passcode";
    expect(fieldSchemaOfFlowJson(json)![1]).toEqual({ name: "last_name", type: "text", required: true, screen: "SIGN_UP" });
  });

  it("is null when no terminal screen completes, and empty when the completion carries nothing", () => {
    const navigates = fixture("appointment-booking.json") as Obj;
    navigates.screens[2].layout.children[3]["on-click-action"] = { name: "navigate", next: { type: "screen", name: "DETAILS" } };
    expect(fieldSchemaOfFlowJson(navigates)).toBeNull();
    expect(fieldSchemaOfFlowJson({ version: "7.3" })).toBeNull();
    const empty = fixture("sign-up.json") as Obj;
    delete empty.screens[0].layout.children[8]["on-click-action"].payload;
    expect(fieldSchemaOfFlowJson(empty)).toEqual([]);
  });
});
