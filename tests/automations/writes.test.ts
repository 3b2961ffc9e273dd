import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "../functions/support";
import { actions, allUnchanged, apply, automationEntry, configDoc } from "../config/support";

/** POST, PATCH and DELETE /automations: config validate's checks, config order, one source of truth with GET /config. */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const create = (key: string, body: unknown, headers?: Record<string, string>) =>
  app.call("POST", "/automations", { key, body, ...(headers ? { headers } : {}) });
const patch = (key: string, id: string, body: unknown) => app.call("PATCH", `/automations/${id}`, { key, body });
const keysInOrder = async (key: string) =>
  ((await app.call("GET", "/automations", { key })).body.data as { key: string; position: number }[]).map((a) => `${a.position}:${a.key}`);
const auditActions = async (key: string) =>
  ((await app.call("GET", "/audit-events?limit=100", { key })).body.data as { action: string; target: { id: string }; details: Record<string, unknown> }[])
    .filter((e) => e.action.startsWith("automation."))
    .reverse();

describe("POST /automations", () => {
  it("creates what config would: exported by GET /config, re-applied as unchanged, deleted by an apply that no longer lists it; audited", async () => {
    const seeded = await app.seed();
    const created = await create(seeded.key, automationEntry("order", { trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: ["Order"] } }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      object: "automation",
      key: "order",
      name: "Automation order",
      trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: ["Order"] },
      steps: [{ send_reply: { text: "Hi from order" } }],
      active: true,
      position: 0,
    });
    expect((await app.call("GET", `/automations/${created.body.id}`, { key: seeded.key })).body).toEqual(created.body);

    const exported = await app.call("GET", "/config", { key: seeded.key });
    expect(exported.body.automations).toEqual([
      {
        key: "order",
        name: "Automation order",
        trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: ["Order"] },
        steps: [{ send_reply: { text: "Hi from order" } }],
        active: true,
      },
    ]);
    const reapplied = await apply(app, seeded.key, exported.body);
    expect(reapplied.status).toBe(200);
    expect(allUnchanged(reapplied.body.diff)).toBe(true);

    // An edit in the document shows through the API; a document without it deletes it.
    const edited = { ...exported.body, automations: [{ ...exported.body.automations[0], trigger: { type: "KEYWORD", keywords: ["pedido"] } }] };
    expect(actions((await apply(app, seeded.key, edited)).body.diff)).toContain("automation order update");
    expect((await app.call("GET", `/automations/${created.body.id}`, { key: seeded.key })).body.trigger).toEqual({ type: "KEYWORD", keywords: ["pedido"] });
    expect(actions((await apply(app, seeded.key, { ...exported.body, automations: [] })).body.diff)).toContain("automation order delete");
    expect((await app.call("GET", `/automations/${created.body.id}`, { key: seeded.key })).status).toBe(404);

    const audited = await auditActions(seeded.key);
    expect(audited[0]).toMatchObject({
      action: "automation.created",
      target: { id: created.body.id },
      details: { key: "order", name: "Automation order", position: 0 },
    });
  });

  it("an Idempotency-Key replays the first answer instead of a second automation", async () => {
    const seeded = await app.seed();
    const first = await create(seeded.key, automationEntry("once"), { "idempotency-key": "create-once" });
    const again = await create(seeded.key, automationEntry("once"), { "idempotency-key": "create-once" });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await keysInOrder(seeded.key)).toEqual(["0:once"]);
  });

  it("needs config:write", async () => {
    const seeded = await app.seed();
    const reader = await app.addKey(seeded, ["config:read"]);
    const refused = await create(reader, automationEntry("nope"));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "config:write" });
  });
});

/** The same mistake in the document (POST /config/validate) and in the API's body: the same issue, its path relative to the automation. */
describe("the 422s are config validate's", () => {
  let seeded: Seeded;
  beforeAll(async () => {
    seeded = await app.seed();
    expect((await create(seeded.key, automationEntry("taken"))).status).toBe(200);
    const fn = await deployed(app, seeded.key, "sleepy", "export default async () => 'zz';");
    expect((await app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { is_active: false } })).status).toBe(200);
  });

  const cases: Array<{ name: string; entry: Record<string, unknown>; path: string }> = [
    { name: "a key outside the pattern", entry: automationEntry("Bad Key"), path: "key" },
    { name: "a KEYWORD trigger without keywords", entry: automationEntry("k1", { trigger: { type: "KEYWORD" } }), path: "trigger.keywords" },
    { name: "a step with two actions", entry: automationEntry("k2", { steps: [{ send_reply: { text: "a" }, delay: { minutes: 1 } }] }), path: "steps.0" },
    {
      name: "an empty wait_reply option label",
      entry: automationEntry("k3", { steps: [{ send_reply: { text: "a" } }, { wait_reply: { options: [{ id: "x", label: " " }] } }] }),
      path: "steps.1.wait_reply.options.0.label",
    },
    { name: "an unknown field", entry: automationEntry("k4", { colour: "red" }), path: "colour" },
    { name: "a delay over 30 days", entry: automationEntry("k5", { steps: [{ delay: { minutes: 60 * 24 * 31 } }] }), path: "steps.0.delay.minutes" },
    {
      name: "a function that does not exist",
      entry: automationEntry("k6", { steps: [{ run_function: { function: "missing" } }] }),
      path: "steps.0.run_function.function",
    },
    {
      name: "an inactive function",
      entry: automationEntry("k7", { steps: [{ run_function: { function: "sleepy" } }] }),
      path: "steps.0.run_function.function",
    },
    { name: "a flow that does not exist", entry: automationEntry("k8", { steps: [{ send_flow: { flow: "nowhere" } }] }), path: "steps.0.send_flow.flow" },
    { name: "a key already used", entry: automationEntry("taken"), path: "key" },
  ];

  it.each(cases)("$name → $path", async ({ entry, path }) => {
    // In the document the API's automation is automations.0 and the new entry automations.1.
    const validated = await app.call("POST", "/config/validate", { key: seeded.key, body: configDoc({ automations: [automationEntry("taken"), entry] }) });
    const documentIssues = (validated.body.issues as { path: string; message: string; severity: string }[]).filter((i) => i.severity === "error");
    expect(documentIssues.map((i) => i.path)).toEqual([`automations.1.${path}`]);

    const refused = await create(seeded.key, entry);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe("config_invalid");
    expect(refused.body.config_issues).toEqual(documentIssues.map((i) => ({ ...i, path })));
    expect(refused.body.issues).toEqual({ [path]: [documentIssues[0]!.message] });
  });

  it("a body that is not an object is a 400; a position that is not a place is a 422", async () => {
    expect((await create(seeded.key, [automationEntry("arr")])).status).toBe(400);
    const bad = await create(seeded.key, { ...automationEntry("neg"), position: -1 });
    expect(bad.status).toBe(422);
    expect(bad.body.config_issues).toEqual([expect.objectContaining({ path: "position", severity: "error" })]);
  });

  it("another project's flow id is not a reference this project can make", async () => {
    const other = await app.addProject(seeded);
    const flow = await app.call("POST", "/flows", {
      key: other.key,
      body: { name: "Theirs", draft: { entryScreenId: "A", screens: [{ id: "A", title: "A", fields: [], submit_label: "Go" }] } },
    });
    expect(flow.status, JSON.stringify(flow.body)).toBe(200);
    const refused = await create(seeded.key, automationEntry("cross", { steps: [{ send_flow: { flow: flow.body.id } }] }));
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toHaveProperty(["steps.0.send_flow.flow"]);
  });
});

describe("PATCH /automations/{id}", () => {
  it("changes any of name, trigger, steps and active; key only unchanged (else the 422 names the config route); audited with the diff's field names", async () => {
    const seeded = await app.seed();
    const made = (await create(seeded.key, automationEntry("faq"))).body;
    app.clock.advance(1000);
    const changed = await patch(seeded.key, made.id, { key: "faq", name: "FAQ", steps: [{ send_reply: { text: "Ask away" } }], active: false });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      id: made.id,
      key: "faq",
      name: "FAQ",
      steps: [{ send_reply: { text: "Ask away" } }],
      active: false,
      trigger: made.trigger,
    });
    expect(changed.body.updated_at).not.toBe(made.updated_at);

    const renamed = await patch(seeded.key, made.id, { key: "help" });
    expect(renamed.status).toBe(422);
    expect(renamed.body).toMatchObject({
      error: "config_invalid",
      issues: { key: [expect.stringContaining("change the key in the document and apply it (POST /config/apply)")] },
    });
    const wrongShape = await patch(seeded.key, made.id, { trigger: { type: "SOMETIMES" }, extra: 1 });
    expect(wrongShape.status).toBe(422);
    expect(wrongShape.body.config_issues.map((i: { path: string }) => i.path).sort()).toEqual(["extra", "trigger.type"]);

    const same = await patch(seeded.key, made.id, { active: false });
    expect(same.body.updated_at).toBe(changed.body.updated_at);
    expect((await auditActions(seeded.key)).map((e) => [e.action, e.details.changes ?? null])).toEqual([
      ["automation.created", null],
      ["automation.updated", ["name", "steps", "active"]],
    ]);
  });

  it("a stored step's reference that went bad since does not keep it from being switched off", async () => {
    const seeded = await app.seed();
    const fn = await deployed(app, seeded.key, "lookup", "export default async () => 'ok';");
    const made = (await create(seeded.key, automationEntry("look", { steps: [{ run_function: { function: "lookup" } }] }))).body;
    await app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { is_active: false } });
    expect((await patch(seeded.key, made.id, { active: false })).status).toBe(200);
    const resent = await patch(seeded.key, made.id, { steps: made.steps });
    expect(resent.status).toBe(422);
    expect(resent.body.issues).toHaveProperty(["steps.0.run_function.function"]);
  });

  it("another project's automation is a 404 to PATCH, DELETE and GET", async () => {
    const seeded = await app.seed();
    const made = (await create(seeded.key, automationEntry("mine"))).body;
    const other = await app.addProject(seeded);
    expect((await patch(other.key, made.id, { active: false })).status).toBe(404);
    expect((await app.call("DELETE", `/automations/${made.id}`, { key: other.key })).status).toBe(404);
    expect((await app.call("GET", `/automations/${made.id}`, { key: other.key })).status).toBe(404);
    expect((await app.call("GET", `/automations/${made.id}`, { key: seeded.key })).body.active).toBe(true);
  });
});

describe("position: config order", () => {
  it("create at a place, move, delete: the others shift and positions stay 0..n-1; the config diff reports the move", async () => {
    const seeded = await app.seed();
    const a = (await create(seeded.key, automationEntry("a"))).body;
    await create(seeded.key, automationEntry("b"));
    await create(seeded.key, automationEntry("c"));
    await create(seeded.key, { ...automationEntry("first"), position: 0 });
    await create(seeded.key, { ...automationEntry("last"), position: 99 });
    expect(await keysInOrder(seeded.key)).toEqual(["0:first", "1:a", "2:b", "3:c", "4:last"]);

    const exported = (await app.call("GET", "/config", { key: seeded.key })).body;
    const moved = await patch(seeded.key, a.id, { position: 3 });
    expect(moved.body.position).toBe(3);
    expect(await keysInOrder(seeded.key)).toEqual(["0:first", "1:b", "2:c", "3:a", "4:last"]);
    // The document from before the move puts it back: the diff calls that a change of order.
    const diff = await app.call("POST", "/config/diff", { key: seeded.key, body: exported });
    expect(diff.body.diff.filter((d: { action: string }) => d.action === "update")).toEqual([
      { type: "automation", key: "a", action: "update", changes: ["order"] },
    ]);

    expect((await patch(seeded.key, a.id, { position: 0 })).status).toBe(200);
    expect(await keysInOrder(seeded.key)).toEqual(["0:a", "1:first", "2:b", "3:c", "4:last"]);
    const deleted = await app.call("DELETE", `/automations/${a.id}`, { key: seeded.key });
    expect(deleted.body).toEqual({ object: "automation", id: a.id, deleted: true });
    expect(await keysInOrder(seeded.key)).toEqual(["0:first", "1:b", "2:c", "3:last"]);
    expect((await app.call("DELETE", `/automations/${a.id}`, { key: seeded.key })).status).toBe(404);
    expect((await auditActions(seeded.key)).slice(-1)).toEqual([
      expect.objectContaining({ action: "automation.deleted", target: expect.objectContaining({ id: a.id }) }),
    ]);
  });
});
