import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiKeys, auditEvents, functionVersions, hostedFunctions, projects } from "@/lib/db/schema";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash, type Operator } from "../dashboard/support";

/**
 * Each audited action, through the real route wrappers (/api/v1 with a key, /api/dashboard with an
 * operator's session), writes exactly one entry naming who, what, which target and from where; a
 * refused or failed action writes none, and an entry that cannot be written undoes its action.
 */

let app: TestApp;
let acme: Seeded;
let operator: Operator;
let keyDisplay: string;

beforeAll(async () => {
  // These requests reach the handlers without a socket, as through a named proxy at 10.x: the address
  // is then the right-most X-Forwarded-For hop outside 10.0.0.0/8, else X-Real-IP (lib/api/client-ip.ts).
  app = await createTestApp({ settings: { trustedProxies: ["10.0.0.0/8"] } });
  acme = await app.seed({ projectName: "Audited" });
  operator = await addOperator(app, acme, "developer", "dana@acme.example");
  const [key] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, acme.keyId));
  keyDisplay = `test (${key!.display})`;
});
afterAll(() => app?.close());

async function entries(action?: string) {
  const rows = await app.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.projectId, acme.projectId), action ? eq(auditEvents.action, action) : undefined));
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

/** Runs `act` and returns the entries it added (of any action). */
async function added(act: () => Promise<unknown>) {
  const before = new Set((await entries()).map((row) => row.id));
  await act();
  return (await entries()).filter((row) => !before.has(row.id));
}

const keyActor = () => ({ actorType: "api_key", actorId: acme.keyId, actorDisplay: keyDisplay });

async function createFunction(slug: string) {
  const res = await app.call("POST", "/functions", { key: acme.key, body: { slug, name: slug, trigger_type: "KEYWORD" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

describe("each audited action writes one entry", () => {
  it("api_key.created from the dashboard: the operator's email, the key's display and scopes, never its value", async () => {
    let created: { id: string; value: string; display: string } | undefined;
    const rows = await added(async () => {
      const res = await dash(app, "POST", `/projects/${acme.projectId}/keys`, {
        as: operator,
        body: { name: "Notifier", scopes: ["messages:send", "limits:read"] },
        headers: { "x-forwarded-for": "203.0.113.24, 10.0.0.7" },
      });
      expect(res.status).toBe(200);
      created = res.body;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "api_key.created",
      actorType: "user",
      actorId: operator.userId,
      actorDisplay: "dana@acme.example",
      targetType: "api_key",
      targetId: created!.id,
      ip: "203.0.113.24",
      details: { name: "Notifier", kind: "secret", display: created!.display, scopes: ["limits:read", "messages:send"] },
    });
    expect(JSON.stringify(rows[0])).not.toContain(created!.value.slice("svc_live_".length));
  });

  it("api_key.revoked from the dashboard (X-Real-IP when there is no X-Forwarded-For)", async () => {
    const created = await dash(app, "POST", `/projects/${acme.projectId}/keys`, { as: operator, body: { name: "Temp", scopes: ["*"] } });
    const rows = await added(async () => {
      const res = await dash(app, "POST", `/projects/${acme.projectId}/keys/${created.body.id}/revoke`, {
        as: operator,
        headers: { "x-real-ip": "2001:db8::42" },
      });
      expect(res.status).toBe(200);
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "api_key.revoked",
      actorType: "user",
      actorId: operator.userId,
      actorDisplay: "dana@acme.example",
      targetType: "api_key",
      targetId: created.body.id,
      ip: "2001:db8::42",
      details: { name: "Temp", display: created.body.display },
    });
  });

  it("config.applied with a key: the project as target and what the apply changed", async () => {
    const doc = {
      version: 1,
      flows: [],
      automations: [{ key: "hi", name: "Hi", trigger: { type: "KEYWORD", keywords: ["hi"] }, steps: [{ send_reply: { text: "Hello" } }] }],
    };
    const rows = await added(async () => {
      const res = await app.call("POST", "/config/apply", { key: acme.key, body: doc, headers: { "x-forwarded-for": "198.51.100.7" } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "config.applied",
      ...keyActor(),
      targetType: "project",
      targetId: acme.projectId,
      ip: "198.51.100.7",
      details: { created: 1, deleted: 0 },
    });
  });

  it("function.deployed per successful deploy; function.rolled_back names both versions", async () => {
    const id = await createFunction("audited-fn");
    const deploy = (source: string) =>
      app.call("POST", `/functions/${id}/deploy`, { key: acme.key, body: { source }, headers: { "x-forwarded-for": "198.51.100.8" } });
    let v1 = "";
    let v2 = "";
    const deployed = await added(async () => {
      v1 = (await deploy("export default async function () { return 1; }\n")).body.version_id;
      v2 = (await deploy("export default async function () { return 2; }\n")).body.version_id;
    });
    expect(deployed.map((row) => [row.action, row.targetId, row.details])).toEqual([
      ["function.deployed", id, expect.objectContaining({ slug: "audited-fn", version_id: v1, version_number: 1 })],
      ["function.deployed", id, expect.objectContaining({ slug: "audited-fn", version_id: v2, version_number: 2 })],
    ]);
    expect(deployed[0]).toMatchObject({ ...keyActor(), targetType: "function", ip: "198.51.100.8" });

    const rolledBack = await added(async () => {
      const res = await app.call("POST", `/functions/${id}/rollback`, { key: acme.key, body: { version_id: v1 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    expect(rolledBack).toHaveLength(1);
    expect(rolledBack[0]).toMatchObject({
      action: "function.rolled_back",
      ...keyActor(),
      targetType: "function",
      targetId: id,
      ip: null,
      details: { version_id: v1, version_number: 1, rollback_from: v2 },
    });
  });

  it("project.webhook_secret_rotated: never the secret itself", async () => {
    let secret = "";
    const rows = await added(async () => {
      const res = await app.call("POST", `/projects/${acme.projectId}/rotate-webhook-secret`, { key: acme.key, headers: { "x-forwarded-for": "192.0.2.1" } });
      expect(res.status).toBe(200);
      secret = res.body.webhook_secret;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "project.webhook_secret_rotated",
      ...keyActor(),
      targetType: "project",
      targetId: acme.projectId,
      ip: "192.0.2.1",
    });
    expect(JSON.stringify(rows[0])).not.toContain(secret.slice("whsec_".length, 20));
  });
});

describe("no entry for an action that did not happen", () => {
  it("refused or failed actions write nothing", async () => {
    const id = await createFunction("failing-fn");
    const rows = await added(async () => {
      expect((await dash(app, "POST", `/projects/${acme.projectId}/keys/key_01jxq4zzzzzzzzzzzzzzzzzzzz/revoke`, { as: operator })).status).toBe(404);
      expect((await dash(app, "POST", `/projects/${acme.projectId}/keys`, { as: operator, body: { name: "x", scopes: ["nope:nope"] } })).status).toBe(400);
      const invalid = await app.call("POST", "/config/apply", {
        key: acme.key,
        body: {
          version: 1,
          flows: [],
          automations: [{ key: "bad", name: "Bad", trigger: { type: "KEYWORD", keywords: ["x"] }, steps: [{ run_function: { function: "missing" } }] }],
        },
      });
      expect(invalid.status).toBe(422);
      const broken = await app.call("POST", `/functions/${id}/deploy`, { key: acme.key, body: { source: "export default async function ( {" } });
      expect(broken.body.status).toBe("error");
      const rollback = await app.call("POST", `/functions/${id}/rollback`, { key: acme.key, body: { version_id: "ver_01jxq4zzzzzzzzzzzzzzzzzzzz" } });
      expect(rollback.status).toBe(404);
      const sibling = await app.addProject(acme, "Not mine");
      expect((await app.call("POST", `/projects/${sibling.projectId}/rotate-webhook-secret`, { key: acme.key })).status).toBe(404);
    });
    expect(rows).toEqual([]);
  });

  it("an entry that cannot be written undoes its action: both are one transaction", async () => {
    const id = await createFunction("atomic-fn");
    const deploy = async (n: number) =>
      app.call("POST", `/functions/${id}/deploy`, { key: acme.key, body: { source: `export default async function () { return ${n}; }\n` } });
    const v1 = (await deploy(1)).body.version_id as string;
    const v2 = (await deploy(2)).body.version_id as string;
    const spare = await dash(app, "POST", `/projects/${acme.projectId}/keys`, { as: operator, body: { name: "Spare", scopes: ["*"] } });
    const [projectBefore] = await app.db.select().from(projects).where(eq(projects.id, acme.projectId));
    const keysBefore = await app.db.select().from(apiKeys).where(eq(apiKeys.projectId, acme.projectId));
    const auditBefore = await entries();

    // The 500s are logged as unexpected errors: expected here.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    await app.db.execute(
      sql`create or replace function audit_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'audit log unavailable'; end $$`,
    );
    await app.db.execute(sql`create trigger audit_test_refuse before insert on audit_events for each row execute function audit_test_refuse()`);
    try {
      const failed = (status: number) => expect(status).toBeGreaterThanOrEqual(500);
      failed((await dash(app, "POST", `/projects/${acme.projectId}/keys`, { as: operator, body: { name: "Ghost", scopes: ["*"] } })).status);
      failed((await dash(app, "POST", `/projects/${acme.projectId}/keys/${spare.body.id}/revoke`, { as: operator })).status);
      failed((await app.call("POST", `/projects/${acme.projectId}/rotate-webhook-secret`, { key: acme.key })).status);
      failed((await deploy(3)).status);
      failed((await app.call("POST", `/functions/${id}/rollback`, { key: acme.key, body: { version_id: v1 } })).status);
      const doc = {
        version: 1,
        flows: [],
        automations: [{ key: "ghost", name: "Ghost", trigger: { type: "KEYWORD", keywords: ["boo"] }, steps: [{ send_reply: { text: "Boo" } }] }],
      };
      failed((await app.call("POST", "/config/apply", { key: acme.key, body: doc })).status);
    } finally {
      await app.db.execute(sql`drop trigger audit_test_refuse on audit_events`);
      quiet.mockRestore();
    }

    expect(await app.db.select().from(apiKeys).where(eq(apiKeys.projectId, acme.projectId))).toEqual(keysBefore);
    const [projectAfter] = await app.db.select().from(projects).where(eq(projects.id, acme.projectId));
    expect(projectAfter!.webhookSecretSealed).toBe(projectBefore!.webhookSecretSealed);
    expect(await app.db.select().from(functionVersions).where(eq(functionVersions.functionId, id))).toHaveLength(2);
    const [fn] = await app.db.select().from(hostedFunctions).where(eq(hostedFunctions.id, id));
    expect(fn!.activeVersionId).toBe(v2);
    const config = await app.call("GET", "/config", { key: acme.key });
    expect(JSON.stringify(config.body)).not.toContain("ghost");
    expect(await entries()).toEqual(auditBefore);
  });
});
