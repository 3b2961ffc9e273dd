import { describe, expect, it } from "vitest";
import { resolvePayload, resolveText, exampleData } from "@/components/flow-render/bindings";
import { readScreen } from "@/components/flow-render/flow-json-read";
import { checkForm } from "@/components/flow-render/form-check";
import { addField, addScreen, changeFieldType, moveField, moveScreen, removeScreen, updateField, updateScreen } from "@/components/flows/model/draft-ops";
import { anchorOf, placeFindings, requestFindings, toFinding } from "@/components/flows/model/findings";
import { pointerRange } from "@/components/flows/model/json-pointer";
import { findingMarkers } from "@/components/flows/json/markers";
import { canDelete, publishBlocker } from "@/components/flows/editor/gates";
import { starterDraft } from "@/components/flows/model/starter-draft";
import { fromDraft, shapeOf, toDraft } from "@/components/flows/model/working-draft";
import { FIELD_TYPES } from "@/components/flows/model/field-types";
import { analyzeFlow } from "@/lib/domain/flows/flow-json/analyze";
import { DRAFT_FIELD_TYPES } from "@/lib/domain/flows/flow-json/types";

/**
 * The Flows editor's pure parts (components/flows/model, components/flow-render): the builder's edits,
 * placing findings by JSON pointer, pointer → text offsets for the Flow JSON editor, and the phone
 * view's `${...}` substitution and form checks; and, against the server's own compiler, that what the
 * builder makes is valid and that the phone view walks a compiled flow to the full submission.
 */

describe("working draft", () => {
  it("round-trips a saved draft unchanged", () => {
    expect(toDraft(fromDraft(starterDraft()))).toEqual(starterDraft());
  });

  it("keeps every arrow to a screen when its id is renamed", () => {
    let draft = fromDraft(starterDraft());
    const confirm = draft.screens[1]!;
    draft = updateScreen(draft, confirm.uid, { id: "THANKS" });
    const saved = toDraft(draft);
    expect(saved.screens[0]!.next).toBe("THANKS");
    expect(saved.screens[1]!.id).toBe("THANKS");
  });

  it("drops arrows into a removed screen and moves the entry to the first screen left", () => {
    let draft = fromDraft(starterDraft());
    draft = removeScreen(draft, draft.screens[1]!.uid);
    expect(toDraft(draft).screens[0]!.next).toBeUndefined();
    draft = addScreen(draft).draft;
    draft = removeScreen(draft, draft.screens[0]!.uid);
    expect(toDraft(draft)).toMatchObject({ entryScreenId: "NEW_SCREEN", screens: [{ id: "NEW_SCREEN" }] });
  });

  it("appends screens after the last one, named with letters only, and names new fields uniquely across the flow", () => {
    let draft = fromDraft(starterDraft());
    draft = addScreen(draft).draft;
    draft = addScreen(draft).draft;
    draft = addField(draft, draft.screens[0]!.uid, "text").draft;
    draft = addField(draft, draft.screens[1]!.uid, "text").draft;
    const saved = toDraft(draft);
    expect(saved.screens.map((s) => s.id)).toEqual(["DETAILS", "CONFIRM", "NEW_SCREEN", "NEW_SCREEN_A"]);
    // Each added screen continues the flow from the screen that ended it.
    expect(saved.screens.map((s) => s.next)).toEqual(["CONFIRM", "NEW_SCREEN", "NEW_SCREEN_A", undefined]);
    expect(saved.screens.flatMap((s) => s.fields.map((f) => f.name))).toEqual(["full_name", "email", "text_1", "marketing_opt_in", "text_2"]);
  });

  it("gives choices default options and drops what a new type cannot use", () => {
    let draft = fromDraft(starterDraft());
    const nameField = draft.screens[0]!.fields[0]!;
    draft = updateField(draft, nameField.uid, { max_length: 40, helper_text: "As on your ID" });
    draft = changeFieldType(draft, nameField.uid, "radio");
    expect(toDraft(draft).screens[0]!.fields[0]).toEqual({
      name: "full_name",
      type: "radio",
      label: "Full name",
      required: true,
      helper_text: "As on your ID",
      options: [
        { id: "option_1", title: "Option 1" },
        { id: "option_2", title: "Option 2" },
      ],
    });
    draft = updateField(draft, nameField.uid, { helper_text: undefined });
    expect(toDraft(draft).screens[0]!.fields[0]).not.toHaveProperty("helper_text");
  });
});

describe("findings in place", () => {
  it("follows a field that moved since the save, through the saved uids", () => {
    let draft = fromDraft(starterDraft());
    const shape = shapeOf(draft);
    const email = draft.screens[0]!.fields[1]!;
    draft = moveField(draft, email.uid, -1);
    draft = moveScreen(draft, draft.screens[1]!.uid, -1);
    expect(anchorOf("/screens/0/fields/1/label", shape)).toEqual({ at: "field", screenUid: draft.screens[1]!.uid, fieldUid: email.uid, prop: "label" });
  });

  it("places the entry, screens, options and the flow as a whole", () => {
    const draft = fromDraft(starterDraft());
    const shape = shapeOf(draft);
    const finding = (path: string) => toFinding({ code: "X", message: path, path, next_steps: "fix it" });
    const placed = placeFindings(
      [finding("/entryScreenId"), finding("/screens/1/next"), finding("/screens/0/fields/0/options/2/title"), finding("/screens"), finding("/screens/9")],
      shape,
    );
    expect(placed.entry).toHaveLength(1);
    expect(placed.screens.get(draft.screens[1]!.uid)?.[0]?.message).toBe("/screens/1/next");
    expect(placed.options.get(`${draft.screens[0]!.fields[0]!.uid}/2`)).toHaveLength(1);
    expect(placed.general.map((f) => f.message)).toEqual(["/screens", "/screens/9"]);
    expect(placed.props.get(draft.screens[1]!.uid)).toEqual(new Set(["next"]));
  });

  it("tells the provider's errors (lines) from ours (pointers)", () => {
    expect(toFinding({ code: 139002, message: "Publishing failed", line_start: 4, line_end: 6, column_start: 3, column_end: 9 })).toMatchObject({
      source: "provider",
      lines: { start: 4, end: 6, columnStart: 3, columnEnd: 9 },
    });
    expect(toFinding({ code: "UNKNOWN_SCREEN", message: "m", path: "/screens/0/next", next_steps: "n" })).toMatchObject({ source: "ours", nextSteps: "n" });
  });

  it("turns a refused save's issue keys into pointers", () => {
    expect(requestFindings({ "draft.screens.0.title": ["Too small"] }, "draft")).toEqual([
      { source: "request", code: "INVALID_REQUEST", message: "Too small", path: "/screens/0/title" },
    ]);
  });
});

describe("pointerRange", () => {
  const text = JSON.stringify({ version: "7.3", screens: [{ id: "A", layout: { children: [{ type: "TextBody", text: 'a/b "q"' }] } }] }, null, 2);

  it("finds the value a pointer names in formatted text", () => {
    const range = pointerRange(text, "/screens/0/layout/children/0/text")!;
    expect(range.exact).toBe(true);
    expect(text.slice(range.start, range.end)).toBe('"a/b \\"q\\""');
  });

  it("stops at the deepest value that exists", () => {
    const range = pointerRange(text, "/screens/0/layout/children/3/label")!;
    expect(range.exact).toBe(false);
    expect(text.slice(range.start, range.start + 1)).toBe("[");
  });
});

describe("Flow JSON markers", () => {
  const text = JSON.stringify({ version: "7.3", screens: [{ id: "A", title: "Hi" }] }, null, 2);

  it("marks a pointer's value when the pointers refer to the text, and the provider's lines always", () => {
    const ours = toFinding({ code: "TEXT_TOO_LONG", message: "Too long", path: "/screens/0/title", next_steps: "Shorten it." });
    const provider = toFinding({ code: 139001, message: "Bad", line_start: 2, line_end: 2 });
    expect(findingMarkers(text, [ours, provider], true)).toEqual([
      { startLineNumber: 6, startColumn: 16, endLineNumber: 6, endColumn: 20, message: "TEXT_TOO_LONG: Too long\nShorten it." },
      { startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 20, message: "139001: Bad" },
    ]);
    expect(findingMarkers(text, [ours], false)).toEqual([]);
  });
});

describe("publish and delete gates", () => {
  const flow = { status: "DRAFT" as const, meta_status: null, has_unpublished_changes: false, published_version: null };
  const finding = toFinding({ code: "UNKNOWN_SCREEN", message: "m", path: "/screens/0/next", next_steps: "n" });

  it("says why Publish is not available, in the order the operator should act", () => {
    expect(publishBlocker({ flow, dirty: true, findings: [finding], canWrite: true })).toBe("Save your changes first.");
    expect(publishBlocker({ flow, dirty: false, findings: [finding], canWrite: true })).toBe("Fix 1 problem first.");
    expect(publishBlocker({ flow, dirty: false, findings: [], canWrite: true })).toBeNull();
    expect(
      publishBlocker({
        flow: { ...flow, meta_status: "PUBLISH_FAILED" },
        dirty: false,
        findings: [toFinding({ code: 1, message: "x", line_start: 1 })],
        canWrite: true,
      }),
    ).toBeNull();
    expect(publishBlocker({ flow: { ...flow, status: "PUBLISHED", meta_status: "PUBLISHED" }, dirty: false, findings: [], canWrite: true })).toBe(
      "Nothing new to publish.",
    );
  });

  it("offers Delete only for a flow that was never published", () => {
    expect(canDelete({ flow, dirty: false, findings: [], canWrite: true })).toBe(true);
    expect(canDelete({ flow: { ...flow, status: "DEPRECATED", published_version: 1 }, dirty: false, findings: [], canWrite: true })).toBe(false);
  });
});

describe("the phone view's substitution and checks", () => {
  const flowJson = {
    version: "7.3",
    screens: [
      {
        id: "A",
        title: "Hello",
        data: { who: { type: "string", __example__: "Ana" } },
        layout: {
          type: "SingleColumnLayout",
          children: [
            { type: "TextBody", text: "Hi ${data.who}" },
            { type: "Form", name: "form", children: [{ type: "TextInput", name: "email", label: "Email", "input-type": "email", required: true }] },
            {
              type: "Footer",
              label: "Next",
              "on-click-action": {
                name: "navigate",
                next: { type: "screen", name: "B" },
                payload: { email: "${form.email}", who: "${data.who}", note: "${form.note}" },
              },
            },
          ],
        },
      },
    ],
  };

  it("reads a screen with its Form opened up and the footer's action", () => {
    const screen = readScreen(flowJson, "A")!;
    expect(screen.components.map((c) => c.kind)).toEqual(["text", "input", "footer"]);
    expect(screen.components[2]).toMatchObject({ action: { name: "navigate", next: "B" } });
    expect(readScreen(flowJson, "Z")).toBeNull();
  });

  it("substitutes data and form values, leaving out empty form values", () => {
    const scope = { data: exampleData(flowJson.screens[0]!.data), form: { email: "a@b.co", note: "" } };
    expect(resolveText("Hi ${data.who}", scope)).toBe("Hi Ana");
    expect(resolvePayload({ email: "${form.email}", who: "${data.who}", note: "${form.note}", fixed: 1 }, scope)).toEqual({
      email: "a@b.co",
      who: "Ana",
      fixed: 1,
    });
  });

  it("checks required fields, emails and checkbox counts", () => {
    const rules = [
      { name: "email", kind: "text" as const, required: true, inputType: "email" },
      { name: "topics", kind: "multi" as const, required: false, maxSelected: 1 },
      { name: "ok", kind: "optin" as const, required: true },
    ];
    expect(checkForm(rules, { email: "nope", topics: ["a", "b"] })).toEqual({ email: "Enter a valid email address", topics: "Pick at most 1", ok: "Required" });
    expect(checkForm(rules, { email: "a@b.co", topics: [], ok: true })).toEqual({});
  });
});

describe("against the server's compiler and checks (lib/domain/flows/flow-json)", () => {
  it("lists the same field types as the domain", () => {
    expect([...FIELD_TYPES]).toEqual([...DRAFT_FIELD_TYPES]);
  });

  it("starts New flow from a draft without findings, and every field type the builder adds is valid as added", () => {
    expect(analyzeFlow({ draft: starterDraft() }).validation_errors).toEqual([]);
    let draft = fromDraft(starterDraft());
    for (const type of FIELD_TYPES) draft = addField(draft, draft.screens[1]!.uid, type).draft;
    draft = addScreen(draft).draft;
    expect(analyzeFlow({ draft: toDraft(draft) }).validation_errors).toEqual([]);
  });

  it("walks the compiled starter flow screen by screen: the completion carries every field", () => {
    const flowJson = analyzeFlow({ draft: starterDraft() }).flow_json!;
    const first = readScreen(flowJson, "DETAILS")!;
    const footer = first.components.find((c) => c.kind === "footer");
    expect(footer).toMatchObject({ action: { name: "navigate", next: "CONFIRM" } });
    const carried = resolvePayload(footer?.kind === "footer" ? footer.action?.payload : undefined, {
      data: {},
      form: { full_name: "Ana", email: "ana@example.com" },
    });
    const last = readScreen(flowJson, "CONFIRM")!;
    const submit = last.components.find((c) => c.kind === "footer");
    expect(submit).toMatchObject({ action: { name: "complete" } });
    const completion = resolvePayload(submit?.kind === "footer" ? submit.action?.payload : undefined, { data: carried, form: { marketing_opt_in: true } });
    expect(completion).toEqual({ full_name: "Ana", email: "ana@example.com", marketing_opt_in: true });
  });
});
