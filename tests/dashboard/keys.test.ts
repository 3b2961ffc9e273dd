import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash, type Operator } from "./support";

let app: TestApp;
let acme: Seeded;
let dev: Operator;
let base: string;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  dev = await addOperator(app, acme, "developer");
  base = `/projects/${acme.projectId}`;
});
afterAll(() => app.close());

describe("API keys from the dashboard", () => {
  it("creates a scoped key whose value is shown once and works on /api/v1 with exactly its scopes", async () => {
    const created = await dash(app, "POST", `${base}/keys`, { as: dev, body: { name: "Notifier", scopes: ["messages:send", "limits:read"] } });
    expect(created.status).toBe(200);
    expect(created.body.value).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(created.body).toMatchObject({
      object: "api_key",
      kind: "secret",
      name: "Notifier",
      scopes: ["limits:read", "messages:send"],
      created_by_user_id: dev.userId,
      revoked_at: null,
    });
    expect(created.body.display.startsWith("svc_live_")).toBe(true);

    const listed = await dash(app, "GET", `${base}/keys`, { as: dev });
    const row = listed.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(row).toBeDefined();
    expect(row.value).toBeUndefined();
    expect(JSON.stringify(listed.body)).not.toContain(created.body.value);

    expect((await app.call("GET", "/limits", { key: created.body.value })).status).toBe(200);
    const refused = await app.call("GET", "/conversations", { key: created.body.value });
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "conversations:read" });

    const afterUse = await dash(app, "GET", `${base}/keys`, { as: dev });
    expect(afterUse.body.data.find((k: { id: string }) => k.id === created.body.id).last_used_at).not.toBeNull();
  });

  it("revokes a key: it stops working at once and is listed as revoked", async () => {
    const created = await dash(app, "POST", `${base}/keys`, { as: dev, body: { name: "Temp", scopes: ["*"] } });
    const revoked = await dash(app, "POST", `${base}/keys/${created.body.id}/revoke`, { as: dev });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    const call = await app.call("GET", "/identity", { key: created.body.value });
    expect(call.status).toBe(401);
    expect((await dash(app, "POST", `${base}/keys/${created.body.id}/revoke`, { as: dev })).status).toBe(404);
  });

  it("refuses unknown scopes, no scopes, and a nameless key with field-level issues", async () => {
    const unknown = await dash(app, "POST", `${base}/keys`, { as: dev, body: { name: "x", scopes: ["messages:sned"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues.scopes).toBeDefined();
    const none = await dash(app, "POST", `${base}/keys`, { as: dev, body: { name: "x", scopes: [] } });
    expect(none.status).toBe(400);
    const nameless = await dash(app, "POST", `${base}/keys`, { as: dev, body: { name: " ", scopes: ["*"] } });
    expect(nameless.status).toBe(400);
    expect(nameless.body.issues.name).toBeDefined();
  });

  it("creates publishable keys with allowed origins, validated as origins", async () => {
    const ok = await dash(app, "POST", `${base}/keys`, {
      as: dev,
      body: { kind: "publishable", name: "Web", allowed_origins: ["https://app.example.com", "http://localhost:5173"] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.value).toMatch(/^svc_pub_/);
    expect(ok.body.scopes).toEqual(["registrations:create"]);
    expect(ok.body.allowed_origins).toEqual(["https://app.example.com", "http://localhost:5173"]);
    const bad = await dash(app, "POST", `${base}/keys`, {
      as: dev,
      body: { kind: "publishable", name: "Web", allowed_origins: ["https://app.example.com/path", "ftp://x"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.allowed_origins).toHaveLength(2);
    const secretWithOrigins = await dash(app, "POST", `${base}/keys`, { as: dev, body: { name: "S", scopes: ["*"], allowed_origins: ["https://a.example"] } });
    expect(secretWithOrigins.status).toBe(400);
  });

  it("keys of another project are out of reach", async () => {
    const sibling = await app.addProject(acme);
    const created = await dash(app, "POST", `/projects/${sibling.projectId}/keys`, { as: dev, body: { name: "Sib", scopes: ["*"] } });
    expect((await dash(app, "POST", `${base}/keys/${created.body.id}/revoke`, { as: dev })).status).toBe(404);
    const mine = await dash(app, "GET", `${base}/keys`, { as: dev });
    expect(mine.body.data.some((k: { id: string }) => k.id === created.body.id)).toBe(false);
  });
});
