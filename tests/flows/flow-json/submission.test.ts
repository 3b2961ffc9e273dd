import { describe, expect, it } from "vitest";
import { compileDraft } from "@/lib/domain/flows/flow-json/compile";
import { fieldSchemaOfDraft } from "@/lib/domain/flows/flow-json/field-schema";
import { validateSubmission } from "@/lib/domain/flows/flow-json/submission";
import { everyFieldDraft, fixture } from "./drafts";

const draft = everyFieldDraft();
const schema = fieldSchemaOfDraft(draft);
const flowJson = compileDraft(draft);

/** What the provider's nfm_reply response_json holds for a complete, valid answer. */
const valid = () => ({
  flow_token: "svcft_0123456789abcdefghijABCDEFGH",
  full_name: "Ana Souza",
  email: "ana@example.com",
  phone: "+5511999990000",
  age: "34",
  visit_date: "2024-05-10",
  branch: "north",
  party_size: "two",
  extras: ["parking"],
  comments: "Window seat please",
  marketing: true,
});

const check = (change: (r: Record<string, unknown>) => void) => {
  const response: Record<string, unknown> = valid();
  change(response);
  return validateSubmission(schema, flowJson, response);
};

describe("validateSubmission", () => {
  it("keeps the schema's fields, drops flow_token and unknown keys, and turns numeric strings into numbers", () => {
    const { submission, errors } = check((r) => (r.utm_source = "ad"));
    expect(errors).toEqual([]);
    const { flow_token: _token, ...fields } = valid();
    expect(submission).toEqual({ ...fields, age: 34 });
    expect(submission).not.toHaveProperty("utm_source");
  });

  const ERRORS: Array<[string, (r: Record<string, unknown>) => void, string, string]> = [
    ["a missing required field", (r) => delete r.email, "email", "REQUIRED"],
    ["an empty required field", (r) => (r.full_name = "  "), "full_name", "REQUIRED"],
    ["an empty required dropdown", (r) => (r.branch = ""), "branch", "REQUIRED"],
    ["a required opt-in left unticked", (r) => (r.marketing = false), "marketing", "REQUIRED"],
    ["a number that is not numeric", (r) => (r.age = "thirty"), "age", "INVALID_NUMBER"],
    ["a number given as a boolean", (r) => (r.age = true), "age", "INVALID_NUMBER"],
    ["an email without a domain", (r) => (r.email = "ana@"), "email", "INVALID_EMAIL"],
    ["a date in another format", (r) => (r.visit_date = "10/05/2024"), "visit_date", "INVALID_DATE"],
    ["a date that does not exist", (r) => (r.visit_date = "2023-02-29"), "visit_date", "INVALID_DATE"],
    ["a short number as a date", (r) => (r.visit_date = "2024"), "visit_date", "INVALID_DATE"],
    ["an option id the dropdown does not have", (r) => (r.branch = "east"), "branch", "INVALID_OPTION"],
    ["an option title instead of its id", (r) => (r.party_size = "Two"), "party_size", "INVALID_OPTION"],
    ["a checkbox answer that is not a list", (r) => (r.extras = "parking"), "extras", "INVALID_OPTION"],
    ["a checkbox list with an unknown id", (r) => (r.extras = ["parking", "valet"]), "extras", "INVALID_OPTION"],
    ["an opt-in that is not a boolean", (r) => (r.marketing = "yes"), "marketing", "INVALID_OPTIN"],
    ["text that is not a string", (r) => (r.comments = { text: "hi" }), "comments", "INVALID_TYPE"],
  ];

  it.each(ERRORS)("rejects %s", (_name, change, field, code) => {
    const { errors } = check(change);
    expect(errors.map((e) => [e.field, e.code])).toEqual([[field, code]]);
    expect(errors[0]!.message).toContain(field);
  });

  it("lets optional fields be missing or empty", () => {
    const { submission, errors } = check((r) => {
      delete r.phone;
      delete r.age;
      r.comments = "";
      r.extras = [];
    });
    expect(errors).toEqual([]);
    expect(submission).not.toHaveProperty("phone");
    expect(submission.comments).toBe("");
  });

  it("keeps an invalid value as sent, so a rejected submission shows what came in", () => {
    const { submission } = check((r) => (r.age = "thirty"));
    expect(submission.age).toBe("thirty");
  });

  it("accepts numbers sent as numbers and decimals as strings", () => {
    expect(check((r) => (r.age = 34)).submission.age).toBe(34);
    expect(check((r) => (r.age = "-1.5")).submission.age).toBe(-1.5);
  });

  it("normalises epoch-millisecond dates to the picked day, for customers east and west of UTC", () => {
    const picked = Date.UTC(2024, 4, 10);
    const eastOfUtc = String(picked - 3 * 3_600_000); // midnight in UTC+3
    const westOfUtc = String(picked + 5 * 3_600_000); // midnight in UTC-5
    expect(check((r) => (r.visit_date = eastOfUtc)).submission.visit_date).toBe("2024-05-10");
    expect(check((r) => (r.visit_date = westOfUtc)).submission.visit_date).toBe("2024-05-10");
    expect(check((r) => (r.visit_date = picked)).submission.visit_date).toBe("2024-05-10");
    expect(check((r) => (r.visit_date = String(Date.UTC(1962, 0, 31)))).submission.visit_date).toBe("1962-01-31");
  });

  it("accepts any option id when the options are bound to data, and when there is no Flow JSON", () => {
    const json = fixture("loan-endpoint.json");
    const loanSchema = [{ name: "offer", type: "dropdown" as const, required: true, screen: "OFFER" }];
    expect(validateSubmission(loanSchema, json, { offer: "loan_9k" }).errors).toEqual([]);
    expect(validateSubmission(schema, null, { ...valid(), branch: "east" }).errors).toEqual([]);
  });

  it("reports every problem at once", () => {
    const { errors } = validateSubmission(schema, flowJson, { flow_token: "svcft_x" });
    expect(errors.map((e) => e.field)).toEqual(["full_name", "email", "visit_date", "branch", "marketing"]);
    expect(new Set(errors.map((e) => e.code))).toEqual(new Set(["REQUIRED"]));
  });
});
