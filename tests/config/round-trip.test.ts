import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { actions, allUnchanged, apply, automationEntry, configDoc, flowEntry, simpleDraft } from "./support";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

function richDoc() {
  return configDoc({
    require_opt_in: false,
    project: { name: "Shop", description: "The shop bot", routing_mode: "FLOWS" },
    webhook: { url: null },
    flows: [
      flowEntry("welcome", { description: "Say hi" }),
      flowEntry("welcome", { locale: "es", name: "Bienvenida", draft: simpleDraft("Cuéntanos") }),
      {
        key: "raw",
        name: "Raw JSON",
        flow_json: { version: "7.3", screens: [{ id: "ONE", title: "One", terminal: true, layout: { type: "SingleColumnLayout", children: [] } }] },
      },
    ],
    automations: [
      automationEntry("hello", { trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["hello", "hi"] } }),
      {
        key: "menu",
        name: "Menu",
        trigger: { type: "WELCOME" },
        steps: [
          { send_reply: { text: "Pick one", buttons: [{ id: "a", title: "A" }] } },
          { wait_reply: { timeout_hours: 2, options: [{ id: "a", label: "A", keywords: ["first"], matchMode: "EXACT" }] } },
          { send_flow: { flow: "welcome", body_text: "Open it" } },
          { delay: { minutes: 5 } },
          { pause_replies: { reason: "handover" } },
        ],
        active: false,
      },
    ],
  });
}

describe("POST /config/validate, /diff, /apply and GET /config", () => {
  // Each test has its own project, so that they pass in any order (CONTRIBUTING "Tests").
  const freshProject = () => app.seed({ projectName: "Round trip" });
  async function appliedProject(): Promise<Seeded> {
    const seeded = await freshProject();
    const applied = await apply(app, seeded.key, richDoc());
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    return seeded;
  }

  it("validate answers config_validation with the parsed document; diff lists what apply will create", async () => {
    const seeded = await freshProject();
    const validated = await app.call("POST", "/config/validate", { key: seeded.key, body: richDoc() });
    expect(validated.status).toBe(200);
    expect(validated.body).toMatchObject({ object: "config_validation", valid: true });
    expect(validated.body.config.flows[1].locale).toBe("es");
    expect(validated.body.issues.filter((i: { severity: string }) => i.severity === "error")).toEqual([]);
    const diff = await app.call("POST", "/config/diff", { key: seeded.key, body: richDoc() });
    expect(diff.body.object).toBe("config_diff");
    expect(actions(diff.body.diff)).toEqual([
      `project ${seeded.projectId} update`,
      "webhook url unchanged",
      "flow welcome create",
      "flow welcome@es create",
      "flow raw create",
      "automation hello create",
      "automation menu create",
    ]);
    expect(diff.body.diff[0].changes).toEqual(["name", "description", "routing_mode", "require_opt_in"]);
  });

  it("apply writes it all; the second apply and an export re-applied are all unchanged", async () => {
    const seeded = await freshProject();
    const first = await apply(app, seeded.key, richDoc());
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ object: "config_apply", valid: true });
    expect(first.body.config.automations.map((a: { key: string }) => a.key)).toEqual(["hello", "menu"]);
    const flows = await app.call("GET", "/flows?config_key=welcome", { key: seeded.key });
    const variants = flows.body.data.map((f: { locale: string | null; status: string }) => `${f.locale ?? "default"} ${f.status}`);
    expect(variants.sort()).toEqual(["default DRAFT", "es DRAFT"]);
    const project = await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key });
    expect(project.body).toMatchObject({ name: "Shop", routing_mode: "FLOWS", require_opt_in: false });

    const second = await apply(app, seeded.key, richDoc());
    expect(allUnchanged(second.body.diff), JSON.stringify(second.body.diff)).toBe(true);

    const exported = await app.call("GET", "/config", { key: seeded.key });
    expect(exported.status).toBe(200);
    expect(exported.body.project_id).toBe(seeded.projectId);
    expect(exported.body.automations[1]).toMatchObject({ key: "menu", active: false });
    const reapplied = await apply(app, seeded.key, exported.body);
    expect(allUnchanged(reapplied.body.diff), JSON.stringify(reapplied.body.diff)).toBe(true);
    expect(reapplied.body.config).toEqual(exported.body);
  });

  it("export writes keys in schema order, whatever order the stored jsonb holds", async () => {
    const seeded = await appliedProject();
    const exported = await app.call("GET", "/config", { key: seeded.key });
    expect(Object.keys(exported.body)).toEqual(["$schema", "version", "project_id", "require_opt_in", "project", "webhook", "flows", "automations"]);
    expect(Object.keys(exported.body.automations[0])).toEqual(["key", "name", "trigger", "steps", "active"]);
    expect(Object.keys(exported.body.automations[0].trigger)).toEqual(["type", "match_mode", "keywords"]);
    expect(Object.keys(exported.body.automations[1].steps[0].send_reply)).toEqual(["text", "buttons"]);
  });

  it("an edit shows as update with the changed fields, and a removal as delete", async () => {
    const seeded = await appliedProject();
    const doc = richDoc();
    (doc.flows as Array<Record<string, unknown>>)[0]!.name = "Welcome v2";
    (doc.automations as Array<Record<string, unknown>>).splice(0, 1);
    (doc.flows as unknown[]).splice(2, 1);
    const diff = await app.call("POST", "/config/diff", { key: seeded.key, body: doc });
    expect(actions(diff.body.diff)).toEqual(
      [
        `project ${seeded.projectId} unchanged`,
        "webhook url unchanged",
        "flow welcome update",
        "flow welcome@es unchanged",
        "automation menu unchanged",
        "flow raw delete",
        "automation hello delete",
      ].sort((a, b) => order(a) - order(b)),
    );
    expect(diff.body.diff.find((i: { key: string }) => i.key === "welcome").changes).toEqual(["name"]);
  });
});

/** Diff order: project, webhook, flows (listed, then deleted), automations (listed, then deleted). */
function order(line: string): number {
  return ["project", "webhook", "flow", "automation"].indexOf(line.split(" ")[0]!);
}

/** Strict (unknown keywords and loose types fail), but a `required` inside oneOf may name a property defined beside it. */
const STRICT = { strict: true, strictRequired: false, validateFormats: false } as const;

describe("GET /config/schema.json", () => {
  it("is a JSON Schema 2020-12 that Ajv compiles and that accepts an exported document", async () => {
    const seeded = await app.seed({ projectName: "Schema" });
    expect((await apply(app, seeded.key, richDoc())).status).toBe(200);
    const schema = await app.call("GET", "/config/schema.json", { key: seeded.key });
    expect(schema.status).toBe(200);
    expect(schema.body.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.body.description).toContain("not expressible here");
    const ajv = new Ajv2020({ ...STRICT, allErrors: true });
    const validate = ajv.compile(schema.body);
    const exported = await app.call("GET", "/config", { key: seeded.key });
    expect(validate(exported.body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(richDoc())).toBe(true);
  });

  it("says what zod's refinements say: one action per step, keywords for KEYWORD, draft or flow_json", async () => {
    const seeded = await app.seed({ projectName: "Schema refinements" });
    const schema = await app.call("GET", "/config/schema.json", { key: seeded.key });
    const validate = new Ajv2020(STRICT).compile(schema.body);
    const twoActions = configDoc({ automations: [automationEntry("x", { steps: [{ send_reply: { text: "a" }, delay: { minutes: 1 } }] })] });
    const noKeywords = configDoc({ automations: [automationEntry("x", { trigger: { type: "KEYWORD" } })] });
    const both = configDoc({ flows: [flowEntry("f", { flow_json: { version: "7.3", screens: [{}] } })] });
    const unknownKey = configDoc({ extra: true });
    for (const doc of [twoActions, noKeywords, both, unknownKey]) expect(validate(doc), JSON.stringify(doc)).toBe(false);
  });
});
