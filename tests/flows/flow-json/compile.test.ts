import { describe, expect, it } from "vitest";
import { compileDraft } from "@/lib/domain/flows/flow-json/compile";
import type { Draft } from "@/lib/domain/flows/flow-json/types";
import { everyFieldDraft } from "./drafts";

type Obj = Record<string, any>;

function screen(json: Obj, id: string): Obj {
  const found = (json.screens as Obj[]).find((s) => s.id === id);
  if (!found) throw new Error(`no screen ${id}`);
  return found;
}

function component(json: Obj, name: string): Obj {
  for (const s of json.screens as Obj[]) {
    const found = (s.layout.children as Obj[]).find((c) => c.name === name);
    if (found) return found;
  }
  throw new Error(`no component ${name}`);
}

function footer(json: Obj, id: string): Obj {
  return (screen(json, id).layout.children as Obj[]).find((c) => c.type === "Footer")!;
}

describe("compileDraft: components", () => {
  const json = compileDraft(everyFieldDraft()) as Obj;

  it("writes Flow JSON 7.3 with a SingleColumnLayout per screen and no endpoint keys when STATIC", () => {
    expect(json.version).toBe("7.3");
    expect(json).not.toHaveProperty("data_api_version");
    expect(json).not.toHaveProperty("routing_model");
    for (const s of json.screens as Obj[]) expect(s.layout.type).toBe("SingleColumnLayout");
  });

  it("compiles text, email, phone and number to TextInput with their input-type", () => {
    expect(component(json, "full_name")).toEqual({
      type: "TextInput",
      name: "full_name",
      label: "Full name",
      "input-type": "text",
      required: true,
      "helper-text": "As on your ID",
      "min-chars": 2,
      "max-chars": 60,
    });
    expect(component(json, "email")).toEqual({ type: "TextInput", name: "email", label: "Email", "input-type": "email", required: true });
    expect(component(json, "phone")).toEqual({ type: "TextInput", name: "phone", label: "Phone", "input-type": "phone", required: false });
    expect(component(json, "age")).toEqual({ type: "TextInput", name: "age", label: "Age", "input-type": "number", required: false });
  });

  it("compiles textarea to TextArea with max-length, and date to DatePicker", () => {
    expect(component(json, "comments")).toEqual({
      type: "TextArea",
      name: "comments",
      label: "Comments",
      required: false,
      "helper-text": "Optional",
      "max-length": 500,
    });
    expect(component(json, "visit_date")).toEqual({
      type: "DatePicker",
      name: "visit_date",
      label: "Visit date",
      required: true,
      "helper-text": "Weekdays only",
    });
  });

  it("compiles dropdown, radio and checkbox with their options as a data-source of {id, title}", () => {
    expect(component(json, "branch")).toEqual({
      type: "Dropdown",
      name: "branch",
      label: "Branch",
      required: true,
      "data-source": [
        { id: "north", title: "North street" },
        { id: "south", title: "South square" },
      ],
    });
    expect(component(json, "party_size")).toMatchObject({ type: "RadioButtonsGroup", required: false, description: "Children count too" });
    expect(component(json, "party_size")["data-source"].map((o: Obj) => o.id)).toEqual(["one", "two", "more"]);
    expect(component(json, "extras")).toEqual({
      type: "CheckboxGroup",
      name: "extras",
      label: "Extras",
      required: false,
      "data-source": [
        { id: "parking", title: "Parking" },
        { id: "wheelchair", title: "Wheelchair access" },
      ],
    });
  });

  it("compiles optin to OptIn", () => {
    expect(component(json, "marketing")).toEqual({ type: "OptIn", name: "marketing", label: "Send me offers and news by WhatsApp", required: true });
  });

  it("uses the title as the screen title and the body as a TextBody before the fields", () => {
    const contact = screen(json, "CONTACT");
    expect(contact.title).toBe("Contact details");
    expect(contact.layout.children[0]).toEqual({ type: "TextBody", text: "Tell us how to reach you." });
    expect(contact.layout.children.map((c: Obj) => c.type)).toEqual(["TextBody", "TextInput", "TextInput", "TextInput", "TextInput", "Footer"]);
    expect(screen(json, "PREFERENCES").layout.children[0].type).toBe("DatePicker");
  });

  it("labels the Footer with submit_label, or Continue / Submit by default", () => {
    expect(footer(json, "CONTACT").label).toBe("Next");
    expect(footer(json, "PREFERENCES").label).toBe("Continue");
    expect(footer(json, "FINISH").label).toBe("Send");
    const draft = everyFieldDraft();
    delete draft.screens[2]!.submit_label;
    expect(footer(compileDraft(draft) as Obj, "FINISH").label).toBe("Submit");
  });
});

describe("compileDraft: navigation", () => {
  const json = compileDraft(everyFieldDraft()) as Obj;

  it("navigates to next carrying its own fields from the form and earlier ones from data", () => {
    expect(footer(json, "CONTACT")["on-click-action"]).toEqual({
      name: "navigate",
      next: { type: "screen", name: "PREFERENCES" },
      payload: { full_name: "${form.full_name}", email: "${form.email}", phone: "${form.phone}", age: "${form.age}" },
    });
    expect(footer(json, "PREFERENCES")["on-click-action"]).toEqual({
      name: "navigate",
      next: { type: "screen", name: "FINISH" },
      payload: {
        full_name: "${data.full_name}",
        email: "${data.email}",
        phone: "${data.phone}",
        age: "${data.age}",
        visit_date: "${form.visit_date}",
        branch: "${form.branch}",
        party_size: "${form.party_size}",
        extras: "${form.extras}",
      },
    });
  });

  it("declares every carried value in the target screen's data, typed, with an example", () => {
    expect(screen(json, "CONTACT")).not.toHaveProperty("data");
    expect(screen(json, "PREFERENCES").data).toEqual({
      full_name: { type: "string", __example__: "Example" },
      email: { type: "string", __example__: "name@example.com" },
      phone: { type: "string", __example__: "+15551234567" },
      age: { type: "string", __example__: "42" },
    });
    const finish = screen(json, "FINISH").data;
    expect(Object.keys(finish)).toEqual(["full_name", "email", "phone", "age", "visit_date", "branch", "party_size", "extras"]);
    expect(finish.visit_date).toEqual({ type: "string", __example__: "2024-01-31" });
    expect(finish.branch).toEqual({ type: "string", __example__: "north" });
    expect(finish.extras).toEqual({ type: "array", items: { type: "string" }, __example__: ["parking"] });
  });

  it("declares an opt-in carried forward as a boolean", () => {
    const draft = everyFieldDraft();
    const optin = draft.screens[2]!.fields.pop()!;
    draft.screens[0]!.fields.push(optin);
    expect(screen(compileDraft(draft) as Obj, "PREFERENCES").data.marketing).toEqual({ type: "boolean", __example__: true });
  });

  it("marks the last screen terminal and successful, completing with every field of the flow", () => {
    const finish = screen(json, "FINISH");
    expect(finish.terminal).toBe(true);
    expect(finish.success).toBe(true);
    expect(screen(json, "CONTACT")).not.toHaveProperty("terminal");
    expect(footer(json, "FINISH")["on-click-action"]).toEqual({
      name: "complete",
      payload: {
        full_name: "${data.full_name}",
        email: "${data.email}",
        phone: "${data.phone}",
        age: "${data.age}",
        visit_date: "${data.visit_date}",
        branch: "${data.branch}",
        party_size: "${data.party_size}",
        extras: "${data.extras}",
        comments: "${form.comments}",
        marketing: "${form.marketing}",
      },
    });
  });

  it("writes screens in navigation order, entry screen first, whatever their order in the draft", () => {
    const draft = everyFieldDraft();
    draft.screens.reverse();
    expect((compileDraft(draft) as Obj).screens.map((s: Obj) => s.id)).toEqual(["CONTACT", "PREFERENCES", "FINISH"]);
  });

  it("compiles a one-screen draft to a terminal screen that completes with its own fields", () => {
    const draft: Draft = {
      entryScreenId: "ONLY",
      screens: [{ id: "ONLY", title: "Quick question", fields: [{ name: "answer", type: "text", label: "Answer" }] }],
    };
    const only = (compileDraft(draft) as Obj).screens[0];
    expect(only).toMatchObject({ id: "ONLY", terminal: true, success: true });
    expect(only).not.toHaveProperty("data");
    expect(only.layout.children.at(-1)["on-click-action"]).toEqual({ name: "complete", payload: { answer: "${form.answer}" } });
  });
});

describe("compileDraft: DATA_EXCHANGE", () => {
  const json = compileDraft(everyFieldDraft(), { runtimeMode: "DATA_EXCHANGE" }) as Obj;

  it("names data_api_version 3.0 and a routing_model built from the next links", () => {
    expect(json.version).toBe("7.3");
    expect(json.data_api_version).toBe("3.0");
    expect(json.routing_model).toEqual({ CONTACT: ["PREFERENCES"], PREFERENCES: ["FINISH"], FINISH: [] });
  });

  it("hands each non-terminal screen's values to the endpoint with data_exchange, same payload as STATIC", () => {
    const staticJson = compileDraft(everyFieldDraft()) as Obj;
    for (const id of ["CONTACT", "PREFERENCES"]) {
      const action = footer(json, id)["on-click-action"];
      expect(action.name).toBe("data_exchange");
      expect(action).not.toHaveProperty("next");
      expect(action.payload).toEqual(footer(staticJson, id)["on-click-action"].payload);
    }
  });

  it("still completes on the terminal screen and declares the carried data", () => {
    expect(footer(json, "FINISH")["on-click-action"].name).toBe("complete");
    expect(Object.keys(screen(json, "FINISH").data)).toHaveLength(8);
  });
});

describe("compileDraft: determinism", () => {
  it("gives byte-identical JSON for the same draft, and for a deep copy of it", () => {
    const draft = everyFieldDraft();
    const first = JSON.stringify(compileDraft(draft));
    expect(JSON.stringify(compileDraft(draft))).toBe(first);
    expect(JSON.stringify(compileDraft(structuredClone(draft)))).toBe(first);
    expect(JSON.stringify(compileDraft(draft, { runtimeMode: "DATA_EXCHANGE" }))).toBe(
      JSON.stringify(compileDraft(structuredClone(draft), { runtimeMode: "DATA_EXCHANGE" })),
    );
  });

  it("does not modify the draft", () => {
    const draft = everyFieldDraft();
    compileDraft(draft, { runtimeMode: "DATA_EXCHANGE" });
    expect(draft).toEqual(everyFieldDraft());
  });
});
