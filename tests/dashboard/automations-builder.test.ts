import { describe, expect, it } from "vitest";
// First, as in the app: the config schema pulls in domain schemas that lib/api/schemas extend with
// .openapi later in this worker (files share it); zod must be extended before they are built.
import "@/lib/api/zod";
import {
  blankDraft,
  blankStep,
  copyKey,
  draftOf,
  duplicateDraft,
  entryOf,
  idFromTitle,
  keyFromName,
  moveItem,
  newUid,
  type AutomationDraft,
} from "@/components/automations/model/draft";
import { documentWithChange } from "@/components/automations/model/document-change";
import { errorCount, fieldPaths, hasErrorsUnder, nearestField, placeIssues, relativePath } from "@/components/automations/model/issue-fields";
import { insertPlaceholder, unknownPlaceholders, variablesAt } from "@/components/automations/model/variables";
import { automationEntrySchema, STEP_KINDS } from "@/lib/domain/automations/definition";
import { configDocumentSchema } from "@/lib/domain/config/schema";
import { fromZod } from "@/lib/domain/config/issues";

/**
 * The builder's pure pieces: the draft and the entry it saves, the exported document with one
 * automation changed (what /config/validate and /config/diff are asked about), where each issue of
 * the real validator's paths shows in the form, and the variables offered to a step's text.
 */

function orderDraft(): AutomationDraft {
  return {
    key: "order",
    name: "Order",
    active: true,
    trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["order"] },
    steps: [
      {
        uid: newUid(),
        step: {
          send_reply: {
            text: "Track or cancel?",
            buttons: [
              { id: "", title: "Track order" },
              { id: "cancel", title: "Cancel" },
            ],
          },
        },
      },
      { uid: newUid(), step: { wait_reply: { timeout_hours: 24, options: [{ id: "", label: "Track order", keywords: [], matchMode: "EXACT" }] } } },
      { uid: newUid(), step: { run_function: { function: "fn_1", result_mode: "variables", variable_name: "answer", reply_field: "ignored" } } },
      { uid: newUid(), step: { send_reply: { text: "Result: {{vars.answer.text}}" } } },
    ],
  };
}

/** A document as GET /config exports it, with two automations (parsed by the entry schema, so typed as the API's). */
function exported() {
  return {
    $schema: "http://localhost/api/v1/config/schema.json",
    version: 1,
    project_id: "proj_1",
    flows: [],
    automations: [
      { key: "greet", name: "Greet", trigger: { type: "WELCOME" }, steps: [{ send_reply: { text: "Hi" } }], active: true },
      { key: "hours", name: "Hours", trigger: { type: "KEYWORD", keywords: ["hours"] }, steps: [{ send_reply: { text: "9-5" } }], active: true },
    ].map((entry) => ({ ...automationEntrySchema.parse(entry), active: true })),
  };
}

describe("the draft and the entry it saves", () => {
  it("saves an entry the config schema accepts, with defaults and other modes' fields left out", () => {
    const entry = entryOf(orderDraft());
    expect(automationEntrySchema.safeParse(entry).success).toBe(true);
    expect(entry.steps[0]).toEqual({
      send_reply: {
        text: "Track or cancel?",
        buttons: [
          { id: "track_order", title: "Track order" },
          { id: "cancel", title: "Cancel" },
        ],
      },
    });
    // EXACT is the option default and empty keywords are left out; the id comes from the label.
    expect(entry.steps[1]).toEqual({ wait_reply: { timeout_hours: 24, options: [{ id: "track_order", label: "Track order" }] } });
    // reply_field belongs to result_mode reply only.
    expect(entry.steps[2]).toEqual({ run_function: { function: "fn_1", result_mode: "variables", variable_name: "answer" } });
  });

  it("keeps only what a trigger type uses", () => {
    const draft = { ...orderDraft(), trigger: { type: "WELCOME" as const, match_mode: "EXACT" as const, keywords: ["x"] } };
    expect(entryOf(draft).trigger).toEqual({ type: "WELCOME" });
  });

  it("starts each step kind from a shape the schema takes once its required text is filled", () => {
    for (const kind of STEP_KINDS) {
      const step = blankStep(kind);
      expect(Object.keys(step)).toEqual([kind]);
    }
    expect(blankDraft().active).toBe(false);
  });

  it("reads a stored automation back unchanged", () => {
    const stored = exported().automations[1]!;
    expect(entryOf(draftOf(stored))).toEqual({ ...stored, trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["hours"] } });
  });

  it("duplicates with a free key, (copy) in the name, switched off", () => {
    const copy = duplicateDraft(exported().automations[0]!, new Set(["greet", "greet-copy"]));
    expect(copy).toMatchObject({ key: "greet-copy-2", name: "Greet (copy)", active: false });
    expect(copyKey("a".repeat(64), new Set()).length).toBeLessThanOrEqual(64);
  });

  it("makes keys and ids from names", () => {
    expect(keyFromName("Order status ¡Ya!")).toBe("order-status-ya");
    expect(idFromTitle("Track order", 0)).toBe("track_order");
    expect(idFromTitle("¿?", 2)).toBe("option_3");
    expect(moveItem(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
  });
});

describe("the exported document with this automation changed", () => {
  it("redefines in place, creates at the end or at a position, and says where the automation sits", () => {
    const entry = entryOf(orderDraft());
    expect(documentWithChange(exported(), { kind: "upsert", entry, originalKey: null }).index).toBe(2);
    const atTop = documentWithChange(exported(), { kind: "upsert", entry, originalKey: null, position: 0 });
    expect(atTop.index).toBe(0);
    expect((atTop.document.automations as Array<{ key: string }>).map((a) => a.key)).toEqual(["order", "greet", "hours"]);
    const redefined = documentWithChange(exported(), { kind: "upsert", entry: { ...entry, key: "hours" }, originalKey: "hours" });
    expect(redefined.index).toBe(1);
    expect((redefined.document.automations as unknown[]).length).toBe(2);
    // Everything else as exported.
    expect(redefined.document.project_id).toBe("proj_1");
    expect(redefined.document.flows).toEqual([]);
  });

  it("moves, deletes and switches without touching the other entries", () => {
    const moved = documentWithChange(exported(), { kind: "move", key: "hours", position: 0 });
    expect((moved.document.automations as Array<{ key: string }>).map((a) => a.key)).toEqual(["hours", "greet"]);
    expect(moved.index).toBe(0);
    const deleted = documentWithChange(exported(), { kind: "delete", key: "greet" });
    expect((deleted.document.automations as Array<{ key: string }>).map((a) => a.key)).toEqual(["hours"]);
    const off = documentWithChange(exported(), { kind: "active", key: "greet", active: false });
    expect((off.document.automations as Array<{ active: boolean }>)[0]!.active).toBe(false);
    expect(exported().automations[0]!.active).toBe(true);
  });

  it("validates with the config schema as the Config page's document does", () => {
    const { document } = documentWithChange(exported(), { kind: "upsert", entry: entryOf(orderDraft()), originalKey: null });
    expect(configDocumentSchema.safeParse(document).success).toBe(true);
  });
});

describe("each issue at its field", () => {
  it("maps the real validator's paths to the fields the form draws", () => {
    const draft = orderDraft();
    draft.trigger = { type: "KEYWORD", keywords: [] };
    draft.steps[0]!.step = { send_reply: { text: "", buttons: [{ id: "a", title: "A title longer than twenty" }] } };
    draft.steps[1]!.step = { wait_reply: { timeout_hours: 500, options: [{ id: "x", label: "" }] } };
    const { document, index } = documentWithChange(exported(), { kind: "upsert", entry: entryOf(draft), originalKey: null, position: 1 });
    const parsed = configDocumentSchema.safeParse(document);
    expect(parsed.success).toBe(false);
    const issues = fromZod(parsed.error!);
    const placed = placeIssues(issues, fieldPaths(draft), index);
    expect([...placed.byField.keys()].sort()).toEqual(
      [
        "trigger.keywords",
        "steps.0.send_reply.text",
        "steps.0.send_reply.buttons.0.title",
        "steps.1.wait_reply.timeout_hours",
        "steps.1.wait_reply.options.0.label",
      ].sort(),
    );
    expect(placed.elsewhere).toEqual([]);
    expect(errorCount(placed)).toBe(5);
    expect(hasErrorsUnder(placed, "steps.1")).toBe(true);
    expect(hasErrorsUnder(placed, "steps.2")).toBe(false);
  });

  it("takes a write endpoint's relative paths as they are, and puts the others aside", () => {
    const draft = orderDraft();
    const known = fieldPaths(draft);
    const placed = placeIssues(
      [
        { path: "steps.2.run_function.function", message: "No function 'x'", severity: "error" },
        { path: "", message: "Whole automation", severity: "error" },
        { path: "steps.9", message: "A step the form no longer has", severity: "error" },
      ],
      known,
    );
    expect(placed.byField.get("steps.2.run_function.function")?.[0]?.message).toBe("No function 'x'");
    expect(placed.general.map((issue) => issue.message)).toEqual(["Whole automation"]);
    // steps.9 falls under the list itself.
    expect(placed.byField.get("steps")?.[0]?.message).toBe("A step the form no longer has");
  });

  it("keeps another automation's and the document's issues out of this form", () => {
    expect(relativePath("automations.1.steps.0", 1)).toBe("steps.0");
    expect(relativePath("automations.1", 1)).toBe("");
    expect(relativePath("automations.0.key", 1)).toBeNull();
    expect(relativePath("project.routing_mode", 1)).toBeNull();
    expect(relativePath("steps.0", undefined)).toBe("steps.0");
    expect(nearestField("steps.0.send_reply.buttons.1.title", new Set(["steps.0", "steps.0.send_reply.buttons"]))).toBe("steps.0.send_reply.buttons");
    const placed = placeIssues([{ path: "automations", message: "fires only on X", severity: "warning" }], new Set(["key"]), 0);
    expect(placed.elsewhere).toHaveLength(1);
  });
});

describe("variables offered to a step's text", () => {
  const steps = orderDraft().steps.map(({ step }) => step);

  it("offers the message's own, then what earlier steps set", () => {
    expect(variablesAt(steps, 0).map((v) => v.name)).toEqual(["contact.name", "contact.phone", "message.text"]);
    expect(variablesAt(steps, 2).map((v) => v.name)).toEqual([
      "contact.name",
      "contact.phone",
      "message.text",
      "vars.reply_text",
      "vars.reply_option",
      "vars.reply_message_id",
    ]);
    const atLast = variablesAt(steps, 3);
    expect(atLast.find((v) => v.name === "vars.answer")).toMatchObject({ fromStep: 2 });
  });

  it("flags placeholders nothing before the step sets", () => {
    expect(unknownPlaceholders("Hi {{contact.name}} {{vars.answer.text}}", steps, 3)).toEqual([]);
    expect(unknownPlaceholders("{{vars.answer}} {{ vars.reply_text }} {{contact.nme}}", steps, 1)).toEqual(["vars.answer", "vars.reply_text", "contact.nme"]);
    // A function merging an object's keys may set any vars.*: nothing is flagged after it.
    const merging = [{ run_function: { function: "f", result_mode: "variables" as const } }];
    expect(unknownPlaceholders("{{vars.whatever}}", merging, 1)).toEqual([]);
  });

  it("inserts a placeholder at the caret or over the selection", () => {
    expect(insertPlaceholder("Hi !", "contact.name", 3)).toEqual({ text: "Hi {{contact.name}}!", caret: 19 });
    expect(insertPlaceholder("Hi NAME", "contact.name", 3, 7)).toEqual({ text: "Hi {{contact.name}}", caret: 19 });
  });
});
