import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "../functions/support";
import { apply, automationEntry, configDoc, flowEntry } from "./support";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

type Issue = { path: string; message: string; severity: "error" | "warning" };

async function validate(key: string, body: unknown) {
  const res = await app.call("POST", "/config/validate", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { valid: boolean; issues: Issue[]; config: unknown };
}

const errorsOf = (issues: Issue[]) => issues.filter((i) => i.severity === "error");
const warningsOf = (issues: Issue[]) => issues.filter((i) => i.severity === "warning");
const sendFlow = (flow: string) => ({ steps: [{ send_flow: { flow } }] });
const runFunction = (fn: string) => ({ steps: [{ run_function: { function: fn } }] });

describe("POST /config/validate: the schema", () => {
  let seeded: Seeded;
  beforeAll(async () => {
    seeded = await app.seed({ projectName: "Schema rules" });
  });

  it("turns zod issues into dotted paths, unknown keys included", async () => {
    const body = configDoc({
      automations: [automationEntry("a"), automationEntry("b"), automationEntry("c", { steps: [{ send_reply: { text: "" } }] })],
      surprise: 1,
    });
    const result = await validate(seeded.key, body);
    expect(result.valid).toBe(false);
    expect(result.config).toBeNull();
    expect(
      errorsOf(result.issues)
        .map((i) => i.path)
        .sort(),
    ).toEqual(["automations.2.steps.0.send_reply.text", "surprise"]);
  });

  it("needs flows and automations, version 1, exactly one action per step and one of draft or flow_json", async () => {
    const missing = await validate(seeded.key, { version: 2 });
    expect(missing.issues.map((i) => i.path).sort()).toEqual(["automations", "flows", "version"]);
    const body = configDoc({
      flows: [{ key: "f", name: "F" }],
      automations: [automationEntry("a", { steps: [{ send_reply: { text: "x" }, delay: { minutes: 1 } }] })],
    });
    const paths = errorsOf((await validate(seeded.key, body)).issues).map((i) => i.path);
    expect(paths).toEqual(["flows.0.draft", "automations.0.steps.0"]);
  });

  it("refuses a body that is not a JSON object with 400", async () => {
    const res = await app.call("POST", "/config/validate", { key: seeded.key, body: [1, 2] });
    expect(res.status).toBe(400);
  });
});

describe("POST /config/validate: keys and references", () => {
  let seeded: Seeded;
  beforeAll(async () => {
    seeded = await app.seed({ projectName: "References" });
  });

  it("refuses the same (key, locale) twice, after canonicalising the locale", async () => {
    const body = configDoc({
      flows: [
        flowEntry("welcome"),
        flowEntry("welcome"),
        flowEntry("welcome", { locale: "pt-br" }),
        flowEntry("welcome", { locale: "pt-BR" }),
        flowEntry("welcome", { locale: "es" }),
      ],
    });
    const errors = errorsOf((await validate(seeded.key, body)).issues);
    expect(errors.map((i) => i.path)).toEqual(["flows.1.key", "flows.3.locale"]);
    expect(errors[1]!.message).toContain("flows.2");
  });

  it("refuses the same automation key twice", async () => {
    const body = configDoc({ automations: [automationEntry("greet"), automationEntry("other"), automationEntry("greet")] });
    expect(errorsOf((await validate(seeded.key, body)).issues).map((i) => i.path)).toEqual(["automations.2.key"]);
  });

  it("send_flow must name a flow key of the document or a flow of this project", async () => {
    const plain = await app.call("POST", "/flows", { key: seeded.key, body: { name: "No key", draft: flowEntry("x").draft } });
    const other = await app.seed({ projectName: "Other tenant" });
    const theirs = await app.call("POST", "/flows", { key: other.key, body: { name: "Theirs", draft: flowEntry("x").draft } });
    const body = configDoc({
      flows: [flowEntry("signup")],
      automations: [
        automationEntry("by-key", sendFlow("signup")),
        automationEntry("by-id", sendFlow(plain.body.id)),
        automationEntry("unknown", sendFlow("nope")),
        automationEntry("cross-tenant", sendFlow(theirs.body.id)),
      ],
    });
    const errors = errorsOf((await validate(seeded.key, body)).issues);
    expect(errors.map((i) => i.path)).toEqual(["automations.2.steps.0.send_flow.flow", "automations.3.steps.0.send_flow.flow"]);
    expect(errors[1]!.message).toContain("No flow");
  });

  it("send_flow naming a config-owned flow the document drops is an error: this apply removes it", async () => {
    const fresh = await app.seed({ projectName: "Dropped flow" });
    expect((await apply(app, fresh.key, configDoc({ flows: [flowEntry("old")] }))).status).toBe(200);
    const errors = errorsOf((await validate(fresh.key, configDoc({ automations: [automationEntry("a", sendFlow("old"))] }))).issues);
    expect(errors).toEqual([expect.objectContaining({ path: "automations.0.steps.0.send_flow.flow", message: expect.stringContaining("removes it") })]);
  });

  it("run_function must name a deployed, active function of this project, by slug or id", async () => {
    const live = await deployed(app, seeded.key, "live-fn", "export default async () => ({ text: 'ok' });");
    await app.call("POST", "/functions", { key: seeded.key, body: { slug: "never-deployed", name: "Never", trigger_type: "KEYWORD" } });
    const off = await deployed(app, seeded.key, "off-fn", "export default async () => 1;");
    expect((await app.call("PATCH", `/functions/${off.id}`, { key: seeded.key, body: { is_active: false } })).status).toBe(200);
    const other = await app.seed({ projectName: "Function tenant" });
    await deployed(app, other.key, "elsewhere", "export default async () => 1;");
    const body = configDoc({
      automations: [
        automationEntry("slug", runFunction("live-fn")),
        automationEntry("id", runFunction(live.id)),
        automationEntry("undeployed", runFunction("never-deployed")),
        automationEntry("inactive", runFunction("off-fn")),
        automationEntry("foreign", runFunction("elsewhere")),
      ],
    });
    const errors = errorsOf((await validate(seeded.key, body)).issues);
    expect(errors.map((i) => [i.path, i.message.split(" ").slice(0, 3).join(" ")])).toEqual([
      ["automations.2.steps.0.run_function.function", "Function 'never-deployed' has"],
      ["automations.3.steps.0.run_function.function", "Function 'off-fn' is"],
      ["automations.4.steps.0.run_function.function", "No function 'elsewhere'"],
    ]);
  });
});

describe("project_id", () => {
  it("another project's id → 422 config_project_mismatch on validate, diff and apply; the key's own is fine", async () => {
    const seeded = await app.seed({ projectName: "Mine" });
    const other = await app.addProject(seeded, "Not mine");
    for (const path of ["/config/validate", "/config/diff", "/config/apply"]) {
      const res = await app.call("POST", path, { key: seeded.key, body: configDoc({ project_id: other.projectId }) });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: "config_project_mismatch", issues: { project_id: [expect.stringContaining(seeded.projectId)] } });
    }
    expect((await validate(seeded.key, configDoc({ project_id: seeded.projectId }))).valid).toBe(true);
  });

  it("a flow entry's project_id or agent_id of another project is an error", async () => {
    const seeded = await app.seed({ projectName: "Entry ids" });
    const body = configDoc({ flows: [flowEntry("a", { project_id: "proj_other", agent_id: seeded.projectId })] });
    expect(errorsOf((await validate(seeded.key, body)).issues).map((i) => i.path)).toEqual(["flows.0.project_id"]);
  });
});

describe("warnings", () => {
  it("automations on an EXTERNAL project: stored with active true, and apply says they will not fire", async () => {
    const seeded = await app.seed({ projectName: "External" });
    const res = await apply(app, seeded.key, configDoc({ automations: [automationEntry("greet")] }));
    expect(res.status).toBe(200);
    expect(warningsOf(res.body.issues)).toEqual([expect.objectContaining({ path: "automations", message: expect.stringContaining("will not fire") })]);
    expect(res.body.config.automations[0].active).toBe(true);
  });

  it("automations under AGENT routing are warned about too, but not under FLOWS", async () => {
    const seeded = await app.seed({ projectName: "Agent" });
    const agent = await validate(seeded.key, configDoc({ project: { routing_mode: "AGENT" }, automations: [automationEntry("a")] }));
    expect(warningsOf(agent.issues).map((i) => i.message)).toEqual([expect.stringContaining("routes AGENT")]);
    const flows = await validate(seeded.key, configDoc({ project: { routing_mode: "FLOWS" }, automations: [automationEntry("a")] }));
    expect(warningsOf(flows.issues)).toEqual([]);
  });

  it("'stored, will not fire' is judged per channel from its effective routing (issue 32 item 6)", async () => {
    const seeded = await app.seed({ orgName: "Per channel", projectName: "Per channel" });
    const connect = async (name: string, routing_mode?: "FLOWS" | "EXTERNAL" | null) => {
      const res = await app.call("POST", "/channels", {
        key: seeded.key,
        body: {
          platform: "PLATFORM_A",
          display_name: name,
          ...(routing_mode !== undefined ? { routing_mode } : {}),
          credentials: { phone_number_id: `pn-${name.replace(/\W/g, "")}-${Date.now()}`, business_account_id: "waba-rules", access_token: "t" },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const automationWarnings = async (project?: { routing_mode: "EXTERNAL" | "FLOWS" | "AGENT" }) =>
      warningsOf((await validate(seeded.key, configDoc({ ...(project ? { project } : {}), automations: [automationEntry("a")] }))).issues)
        .filter((i) => i.path === "automations")
        .map((i) => i.message);

    // An EXTERNAL project with a FLOWS number: the automations fire there, so they are not "will not fire".
    await connect("Orders line", "FLOWS");
    const external = await automationWarnings();
    expect(external).toEqual(["These automations fire only on Orders line (routing FLOWS), not on the shared sandbox (EXTERNAL)."]);

    // Under AGENT the FLOWS number keeps its own routing; a number that follows the project routes AGENT.
    await connect("Agent line", null);
    expect(await automationWarnings({ routing_mode: "AGENT" })).toEqual([
      "These automations fire only on Orders line (routing FLOWS), not on the shared sandbox (AGENT) or Agent line (AGENT).",
    ]);
    // Under FLOWS every channel but an EXTERNAL one runs them.
    await connect("Webhook line", "EXTERNAL");
    expect(await automationWarnings({ routing_mode: "FLOWS" })).toEqual([
      "These automations fire only on the shared sandbox, Orders line and Agent line (routing FLOWS), not on Webhook line (EXTERNAL).",
    ]);
  });

  it("no channel routes FLOWS: 'stored, active, but will not fire', naming each channel's routing", async () => {
    const seeded = await app.seed({ orgName: "Nowhere", projectName: "Nowhere" });
    const res = await app.call("POST", "/channels", {
      key: seeded.key,
      body: {
        platform: "PLATFORM_A",
        display_name: "Main line",
        credentials: { phone_number_id: `pn-nowhere-${Date.now()}`, business_account_id: "waba-n", access_token: "t" },
      },
    });
    expect(res.status).toBe(200);
    const result = await validate(seeded.key, configDoc({ automations: [automationEntry("a")] }));
    expect(warningsOf(result.issues)).toEqual([
      expect.objectContaining({
        path: "automations",
        message: expect.stringMatching(
          /^The project routes EXTERNAL and no channel routes FLOWS \(the shared sandbox \(EXTERNAL\) and Main line \(EXTERNAL\)\): these automations are stored, active, but will not fire\./,
        ),
      }),
    ]);
  });

  it("a flow group without a default-locale entry", async () => {
    const seeded = await app.seed({ projectName: "Locales" });
    const body = configDoc({ flows: [flowEntry("ok"), flowEntry("promo", { locale: "es" }), flowEntry("promo", { locale: "fr" })] });
    const result = await validate(seeded.key, body);
    expect(result.valid).toBe(true);
    expect(warningsOf(result.issues)).toEqual([
      { path: "flows.1", severity: "warning", message: expect.stringContaining("promo' has no default-locale entry") },
    ]);
  });

  it("FLOWS routing with a webhook URL set", async () => {
    const seeded = await app.seed({ projectName: "Flows and webhook" });
    const body = configDoc({ project: { routing_mode: "FLOWS" }, webhook: { url: "https://hooks.example.com/svc" } });
    const result = await validate(seeded.key, body);
    expect(warningsOf(result.issues)).toEqual([expect.objectContaining({ path: "webhook.url", message: expect.stringContaining("not forwarded") })]);
  });

  it("a flow's own findings are warnings with their path in the document", async () => {
    const seeded = await app.seed({ projectName: "Findings" });
    const draft = flowEntry("x").draft;
    draft.screens[0]!.title = "T".repeat(100);
    const result = await validate(seeded.key, configDoc({ flows: [flowEntry("long", { draft })] }));
    expect(result.valid).toBe(true);
    expect(warningsOf(result.issues).map((i) => i.path)).toContain("flows.0.draft.screens.0.title");
  });
});

describe("scopes and tenants", () => {
  it("config:read validates, diffs, exports and reads the schema, but cannot apply", async () => {
    const seeded = await app.seed({ projectName: "Scopes" });
    const reader = await app.addKey(seeded, ["config:read"]);
    expect((await app.call("GET", "/config", { key: reader })).status).toBe(200);
    expect((await app.call("GET", "/config/schema.json", { key: reader })).status).toBe(200);
    expect((await app.call("POST", "/config/validate", { key: reader, body: configDoc() })).status).toBe(200);
    expect((await app.call("POST", "/config/diff", { key: reader, body: configDoc() })).status).toBe(200);
    const denied = await apply(app, reader, configDoc({ automations: [automationEntry("a")] }));
    expect(denied.status).toBe(403);
    expect(denied.body.required_scope).toBe("config:write");
    const other = await app.addKey(seeded, ["flows:read"]);
    expect((await app.call("GET", "/config", { key: other })).body.required_scope).toBe("config:read");
  });

  it("one project's apply never sees or touches another's flows and automations", async () => {
    const seeded = await app.seed({ projectName: "Tenant A" });
    const sibling = await app.addProject(seeded, "Tenant B");
    expect((await apply(app, seeded.key, configDoc({ flows: [flowEntry("shared")], automations: [automationEntry("shared")] }))).status).toBe(200);
    const theirs = await apply(app, sibling.key, configDoc({ flows: [flowEntry("shared")], automations: [automationEntry("shared")] }));
    expect(theirs.body.diff.map((i: { action: string }) => i.action)).toEqual(["create", "create"]);
    const emptied = await apply(app, sibling.key, configDoc());
    expect(emptied.body.diff.map((i: { action: string }) => i.action)).toEqual(["delete", "delete"]);
    const mine = await app.call("GET", "/config", { key: seeded.key });
    expect(mine.body.flows.map((f: { key: string }) => f.key)).toEqual(["shared"]);
    expect(mine.body.automations.map((a: { key: string }) => a.key)).toEqual(["shared"]);
  });
});
