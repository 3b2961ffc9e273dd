import fs from "node:fs";
import path from "node:path";
import type { Draft, FlowJson } from "@/lib/domain/flows/flow-json/types";

/** A three-screen draft that uses every field type and every optional setting its type supports. */
export function everyFieldDraft(): Draft {
  return {
    entryScreenId: "CONTACT",
    screens: [
      {
        id: "CONTACT",
        title: "Contact details",
        body: "Tell us how to reach you.",
        fields: [
          { name: "full_name", type: "text", label: "Full name", required: true, helper_text: "As on your ID", min_length: 2, max_length: 60 },
          { name: "email", type: "email", label: "Email", required: true },
          { name: "phone", type: "phone", label: "Phone" },
          { name: "age", type: "number", label: "Age", required: false },
        ],
        next: "PREFERENCES",
        submit_label: "Next",
      },
      {
        id: "PREFERENCES",
        title: "Your visit",
        fields: [
          { name: "visit_date", type: "date", label: "Visit date", required: true, helper_text: "Weekdays only" },
          {
            name: "branch",
            type: "dropdown",
            label: "Branch",
            required: true,
            options: [
              { id: "north", title: "North street" },
              { id: "south", title: "South square" },
            ],
          },
          {
            name: "party_size",
            type: "radio",
            label: "Party size",
            helper_text: "Children count too",
            options: [
              { id: "one", title: "Just me" },
              { id: "two", title: "Two" },
              { id: "more", title: "Three or more" },
            ],
          },
          {
            name: "extras",
            type: "checkbox",
            label: "Extras",
            options: [
              { id: "parking", title: "Parking" },
              { id: "wheelchair", title: "Wheelchair access" },
            ],
          },
        ],
        next: "FINISH",
      },
      {
        id: "FINISH",
        title: "Almost done",
        fields: [
          { name: "comments", type: "textarea", label: "Comments", helper_text: "Optional", max_length: 500 },
          { name: "marketing", type: "optin", label: "Send me offers and news by WhatsApp", required: true },
        ],
        submit_label: "Send",
      },
    ],
  };
}

/** A fresh copy of a fixture in tests/fixtures/flows (tests mutate it). */
export function fixture(name: string): FlowJson {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../fixtures/flows", name), "utf8")) as FlowJson;
}

export const FIXTURES = ["sign-up.json", "appointment-booking.json", "loan-endpoint.json"];

/** [code, path] pairs: what a table of findings compares. */
export function codes(findings: Array<{ code: string; path: string }>): Array<[string, string]> {
  return findings.map((f) => [f.code, f.path]);
}
