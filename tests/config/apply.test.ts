import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { automations, flows } from "@/lib/db/schema";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { actions, allUnchanged, apply, automationEntry, configDoc, flowEntry, simpleDraft, snapshot } from "./support";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const base = () =>
  configDoc({
    flows: [flowEntry("welcome"), flowEntry("welcome", { locale: "es" })],
    automations: [automationEntry("one"), automationEntry("two"), automationEntry("three")],
  });

describe("POST /config/apply: one transaction", () => {
  it("an error in the LAST automation writes nothing: 422 config_invalid with the issues", async () => {
    const seeded = await app.seed({ projectName: "Atomic" });
    expect((await apply(app, seeded.key, base())).status).toBe(200);
    const before = await snapshot(app, seeded.projectId);
    const bad = configDoc({
      project: { name: "Renamed" },
      flows: [flowEntry("welcome", { name: "Changed" }), flowEntry("brand-new")],
      automations: [automationEntry("four"), automationEntry("one"), automationEntry("last", { steps: [{ run_function: { function: "missing" } }] })],
    });
    const res = await apply(app, seeded.key, bad);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: "config_invalid",
      issues: { "automations.2.steps.0.run_function.function": [expect.stringContaining("No function")] },
    });
    expect(res.body.config_issues).toContainEqual(expect.objectContaining({ path: "automations.2.steps.0.run_function.function", severity: "error" }));
    expect(await snapshot(app, seeded.projectId)).toEqual(before);
    expect((await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key })).body.name).toBe("Atomic");
  });

  it("a failure while writing (the provider refusing a deprecation) rolls back everything written before it", async () => {
    const seeded = await app.seed({ projectName: "Rollback" });
    expect((await apply(app, seeded.key, base())).status).toBe(200);
    // A published variant whose deprecation must reach the provider, which this app cannot reach.
    await app.db
      .update(flows)
      .set({ status: "PUBLISHED", metaStatus: "PUBLISHED", publishedVersion: 1, metaFlowId: "999", publishChannelId: "ch_sandbox" })
      .where(eq(flows.configKey, "welcome"));
    const before = await snapshot(app, seeded.projectId);
    const res = await apply(app, seeded.key, configDoc({ flows: [flowEntry("fresh")], automations: [automationEntry("new")] }));
    expect(res.status).toBe(502);
    expect(res.body.error).toBe("provider_error");
    expect(await snapshot(app, seeded.projectId)).toEqual(before);
  });
});

describe("POST /config/apply: what it owns", () => {
  let seeded: Seeded;
  beforeAll(async () => {
    seeded = await app.seed({ projectName: "Ownership" });
  });

  it("deletes a config-owned DRAFT flow and automations the document no longer lists", async () => {
    expect((await apply(app, seeded.key, base())).status).toBe(200);
    const res = await apply(app, seeded.key, configDoc({ flows: [flowEntry("welcome")], automations: [automationEntry("two")] }));
    expect(actions(res.body.diff)).toEqual([
      "flow welcome unchanged",
      "flow welcome@es delete",
      "automation two unchanged",
      "automation one delete",
      "automation three delete",
    ]);
    const rows = await snapshot(app, seeded.projectId);
    expect(rows.flows.map((f) => [f.configKey, f.locale])).toEqual([["welcome", null]]);
    expect(rows.automations.map((a) => [a.key, a.position])).toEqual([["two", 0]]);
  });

  it("never touches flows without a config_key: not exported, not diffed, not deleted", async () => {
    const own = await app.seed({ projectName: "Hand-made flows" });
    const made = await app.call("POST", "/flows", { key: own.key, body: { name: "By hand", draft: simpleDraft() } });
    const before = (await app.db.select().from(flows).where(eq(flows.id, made.body.id)))[0];
    const res = await apply(app, own.key, configDoc({ flows: [flowEntry("keyed")] }));
    expect(actions(res.body.diff)).toEqual(["flow keyed create"]);
    expect(res.body.config.flows.map((f: { key: string }) => f.key)).toEqual(["keyed"]);
    const emptied = await apply(app, own.key, configDoc());
    expect(actions(emptied.body.diff)).toEqual(["flow keyed delete"]);
    expect((await app.db.select().from(flows).where(eq(flows.id, made.body.id)))[0]).toEqual(before);
  });

  it("an omitted `active` keeps what PATCH /automations set; a given one wins", async () => {
    const own = await app.seed({ projectName: "Active" });
    await apply(app, own.key, configDoc({ automations: [automationEntry("quiet")] }));
    await app.db.update(automations).set({ active: false }).where(eq(automations.projectId, own.projectId));
    const kept = await apply(app, own.key, configDoc({ automations: [automationEntry("quiet")] }));
    expect(actions(kept.body.diff)).toEqual(["automation quiet unchanged"]);
    expect(kept.body.config.automations[0].active).toBe(false);
    const on = await apply(app, own.key, configDoc({ automations: [automationEntry("quiet", { active: true })] }));
    expect(on.body.diff).toEqual([{ type: "automation", key: "quiet", action: "update", changes: ["active"] }]);
  });

  it("order is the document's: a real move is an update (order), a shift from a deletion is not", async () => {
    const own = await app.seed({ projectName: "Order" });
    await apply(app, own.key, configDoc({ automations: ["a", "b", "c", "d"].map((k) => automationEntry(k)) }));
    const moved = await apply(app, own.key, configDoc({ automations: ["a", "d", "b", "c"].map((k) => automationEntry(k)) }));
    expect(moved.body.diff.filter((i: { action: string }) => i.action !== "unchanged")).toEqual([
      { type: "automation", key: "d", action: "update", changes: ["order"] },
    ]);
    const shifted = await apply(app, own.key, configDoc({ automations: ["d", "b", "c"].map((k) => automationEntry(k)) }));
    expect(actions(shifted.body.diff)).toEqual(["automation d unchanged", "automation b unchanged", "automation c unchanged", "automation a delete"]);
    const rows = await app.db.select().from(automations).where(eq(automations.projectId, own.projectId));
    expect(rows.map((r) => [r.key, r.position]).sort()).toEqual([
      ["b", 1],
      ["c", 2],
      ["d", 0],
    ]);
    expect(allUnchanged((await apply(app, own.key, configDoc({ automations: ["d", "b", "c"].map((k) => automationEntry(k)) }))).body.diff)).toBe(true);
  });

  it("a content change re-saves the flow through the flows module (new revision, findings); an unchanged one keeps its revision", async () => {
    const own = await app.seed({ projectName: "Revisions" });
    await apply(app, own.key, configDoc({ flows: [flowEntry("a"), flowEntry("b")] }));
    const revisions = async () =>
      Object.fromEntries((await app.db.select().from(flows).where(eq(flows.projectId, own.projectId))).map((f) => [f.configKey, f.revision]));
    const before = await revisions();
    const res = await apply(app, own.key, configDoc({ flows: [flowEntry("a", { draft: simpleDraft("New title") }), flowEntry("b", { name: "Renamed" })] }));
    expect(res.body.diff).toEqual([
      { type: "flow", key: "a", action: "update", changes: ["draft"] },
      { type: "flow", key: "b", action: "update", changes: ["name"] },
    ]);
    expect(await revisions()).toEqual({ a: before.a! + 1, b: before.b });
  });

  it("sets the webhook URL and clears it; project settings left out of the document stay", async () => {
    const own = await app.seed({ projectName: "Webhook" });
    const set = await apply(app, own.key, configDoc({ webhook: { url: "https://hooks.example.com/a" } }));
    expect(actions(set.body.diff)).toEqual(["webhook url create"]);
    const changed = await apply(app, own.key, configDoc({ webhook: { url: "https://hooks.example.com/b" } }));
    expect(actions(changed.body.diff)).toEqual(["webhook url update"]);
    const cleared = await apply(app, own.key, configDoc({ webhook: { url: null } }));
    expect(actions(cleared.body.diff)).toEqual(["webhook url delete"]);
    const project = await app.call("GET", `/projects/${own.projectId}`, { key: own.key });
    expect(project.body).toMatchObject({ webhook_url: null, name: "Webhook", routing_mode: "EXTERNAL", require_opt_in: true });
  });

  it("refuses a private webhook URL when the network policy refuses private addresses", async () => {
    const strict = await createTestApp({ settings: { allowPrivateNetwork: false } });
    try {
      const own = await strict.seed({ projectName: "Private" });
      const res = await strict.call("POST", "/config/validate", { key: own.key, body: configDoc({ webhook: { url: "http://127.0.0.1:8080/hook" } }) });
      expect(res.body.valid).toBe(false);
      expect(res.body.issues).toEqual([expect.objectContaining({ path: "webhook.url", severity: "error" })]);
    } finally {
      await strict.close();
    }
  });
});
