import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, auditEvents, cliDeviceCodes } from "@/lib/db/schema";
import { USER_CODE_ALPHABET } from "@/lib/domain/cli-login";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash, type Operator } from "../dashboard/support";
import { cliApi, freshIp, poll, startLogin } from "./support";

let app: TestApp;
let acme: Seeded;
let other: Seeded;
let dev: Operator;
let viewer: Operator;
let outsider: Operator;

beforeAll(async () => {
  app = await createTestApp({ settings: { publicUrl: "https://svc.example.test" } });
  acme = await app.seed({ orgName: "Acme" });
  other = await app.seed({ orgName: "Other" });
  dev = await addOperator(app, acme, "developer");
  viewer = await addOperator(app, acme, "viewer");
  outsider = await addOperator(app, other, "owner");
});
afterAll(() => app.close());

const approve = (userCode: string, as: Operator | null, body: unknown) => dash(app, "POST", `/cli/device-codes/${userCode}/approve`, { as, body });

describe("CLI login: the device-code flow", () => {
  it("pending → approved in the dashboard → the key exactly once, with exactly the chosen scopes, audited", async () => {
    const started = await startLogin(app, "dev-box");
    const letters = `[${USER_CODE_ALPHABET}]{4}`;
    expect(started.user_code).toMatch(new RegExp(`^${letters}-${letters}$`));
    expect(started).toMatchObject({ expires_in: 600, interval: 2, verification_url: `https://svc.example.test/cli/confirm?code=${started.user_code}` });
    expect(started.device_code).toMatch(/^svc_dc_[0-9A-Za-z]{40}$/);
    // Only the hash of the device code is stored.
    const [row] = await app.db
      .select()
      .from(cliDeviceCodes)
      .where(eq(cliDeviceCodes.userCode, started.user_code.replace("-", "")));
    expect(JSON.stringify(row)).not.toContain(started.device_code);

    const pending = await poll(app, started.device_code);
    expect(pending.status).toBe(428);
    expect(pending.body.error).toBe("authorization_pending");

    const seen = await dash(app, "GET", `/cli/device-codes/${started.user_code}`, { as: dev });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: "pending", client_host: "dev-box", user_code: started.user_code });

    // Lower case without the dash is the same code.
    const approved = await approve(started.user_code.replace("-", "").toLowerCase(), dev, {
      project_id: acme.projectId,
      scopes: ["limits:read", "config:read"],
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", project_id: acme.projectId, scopes: ["config:read", "limits:read"] });

    const token = await poll(app, started.device_code);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      key_id: approved.body.key_id,
      project_id: acme.projectId,
      display: approved.body.key_display,
      scopes: ["config:read", "limits:read"],
    });
    const key = token.body.api_key as string;
    expect(key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);

    const [stored] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, token.body.key_id));
    expect(stored).toMatchObject({ name: "CLI on dev-box", kind: "secret", createdByUserId: dev.userId, projectId: acme.projectId });
    expect((await app.call("GET", "/limits", { key })).status).toBe(200);
    const refused = await app.call("GET", "/conversations", { key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("insufficient_scope");

    const again = await poll(app, started.device_code);
    expect(again.status).toBe(410);
    expect(again.body.error).toBe("expired_token");
    const [claimed] = await app.db.select().from(cliDeviceCodes).where(eq(cliDeviceCodes.id, row!.id));
    expect(claimed).toMatchObject({ status: "CLAIMED", sealedKey: null, apiKeyId: stored!.id, approvedByUserId: dev.userId });

    const [audit] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "api_key.created"), eq(auditEvents.targetId, stored!.id)));
    expect(audit).toMatchObject({ projectId: acme.projectId, actorType: "user", actorId: dev.userId, actorDisplay: dev.email });
    expect(audit!.details).toMatchObject({ via: "cli_login", scopes: ["config:read", "limits:read"] });
    expect(JSON.stringify(audit)).not.toContain(key);

    // Decided once: a second approval is refused and mints nothing.
    const twice = await approve(started.user_code, dev, { project_id: acme.projectId, scopes: ["*"] });
    expect(twice.status).toBe(409);
    expect((await dash(app, "GET", `/cli/device-codes/${started.user_code}`, { as: dev })).body.status).toBe("claimed");
  });

  it("refuses a poll faster than the interval with 429 and Retry-After", async () => {
    const started = await startLogin(app);
    expect((await poll(app, started.device_code)).status).toBe(428);
    app.clock.advance(500);
    const fast = await cliApi(app, "POST", "/device-codes/token", { body: { device_code: started.device_code } });
    expect(fast.status).toBe(429);
    expect(fast.body.error).toBe("rate_limit");
    expect(Number(fast.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await poll(app, started.device_code)).status).toBe(428);
  });

  it("expires after 10 minutes: 410 to the CLI and to the dashboard", async () => {
    const started = await startLogin(app);
    app.clock.advance(600_000);
    const expired = await poll(app, started.device_code);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toBe("expired_token");
    expect((await dash(app, "GET", `/cli/device-codes/${started.user_code}`, { as: dev })).body.status).toBe("expired");
    const late = await approve(started.user_code, dev, { project_id: acme.projectId, scopes: ["*"] });
    expect(late.status).toBe(410);
  });

  it("revokes an approved key nobody collected before the code expired", async () => {
    const started = await startLogin(app);
    const approved = await approve(started.user_code, dev, { project_id: acme.projectId, scopes: ["*"] });
    expect(approved.status).toBe(200);
    app.clock.advance(600_000);
    expect((await poll(app, started.device_code)).status).toBe(410);
    const [key] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, approved.body.key_id));
    expect(key!.revokedAt).not.toBeNull();
    const [row] = await app.db.select().from(cliDeviceCodes).where(eq(cliDeviceCodes.apiKeyId, approved.body.key_id));
    expect(row!.sealedKey).toBeNull();
  });

  it("denied in the dashboard: 403 access_denied, and no key", async () => {
    const started = await startLogin(app);
    const denied = await dash(app, "POST", `/cli/device-codes/${started.user_code}/deny`, { as: viewer });
    expect(denied.status).toBe(200);
    expect(denied.body.status).toBe("denied");
    const answer = await poll(app, started.device_code);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe("access_denied");
    expect((await approve(started.user_code, dev, { project_id: acme.projectId, scopes: ["*"] })).status).toBe(409);
  });

  it("only an operator with keys:write in the project's organization can approve", async () => {
    const started = await startLogin(app);
    const byViewer = await approve(started.user_code, viewer, { project_id: acme.projectId, scopes: ["*"] });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body).toMatchObject({ error: "insufficient_scope", required_scope: "keys:write" });
    // An owner elsewhere: the project is not theirs, so it does not exist for them.
    const byOutsider = await approve(started.user_code, outsider, { project_id: acme.projectId, scopes: ["*"] });
    expect(byOutsider.status).toBe(404);
    const signedOut = await approve(started.user_code, null, { project_id: acme.projectId, scopes: ["*"] });
    expect(signedOut.status).toBe(401);
    expect((await dash(app, "GET", `/cli/device-codes/${started.user_code}`, { as: null })).status).toBe(401);
    const unknownScope = await approve(started.user_code, dev, { project_id: acme.projectId, scopes: ["nope:read"] });
    expect(unknownScope.status).toBe(400);
    expect((await poll(app, started.device_code)).status).toBe(428);
    const [row] = await app.db
      .select()
      .from(cliDeviceCodes)
      .where(eq(cliDeviceCodes.userCode, started.user_code.replace("-", "")));
    expect(row).toMatchObject({ status: "PENDING", apiKeyId: null, sealedKey: null });
  });

  it("answers unknown and malformed codes with clear 4xx errors", async () => {
    expect((await dash(app, "GET", "/cli/device-codes/BBBB-BBBB", { as: dev })).status).toBe(404);
    expect((await dash(app, "GET", "/cli/device-codes/not-a-code", { as: dev })).status).toBe(404);
    const unknown = await cliApi(app, "POST", "/device-codes/token", { body: { device_code: "svc_dc_unknown" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("not_found");
    const missing = await cliApi(app, "POST", "/device-codes/token", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.issues.device_code).toBeDefined();
    const extra = await cliApi(app, "POST", "/device-codes", { body: { client_host: "x", scopes: ["*"] }, ip: freshIp() });
    expect(extra.status).toBe(400);
  });

  it("limits new codes per client address with 429 and Retry-After", async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) expect((await cliApi(app, "POST", "/device-codes", { body: {}, ip })).status).toBe(200);
    const limited = await cliApi(app, "POST", "/device-codes", { body: {}, ip });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe("rate_limit");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await cliApi(app, "POST", "/device-codes", { body: {}, ip: freshIp() })).status).toBe(200);
  });
});

describe("CLI logout", () => {
  it("revokes the calling key, audited; a second logout is 401", async () => {
    const key = await app.addKey(acme, ["limits:read"]);
    const out = await cliApi(app, "POST", "/logout", { key });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ object: "api_key" });
    expect(out.body.revoked_at).not.toBeNull();
    expect((await app.call("GET", "/limits", { key })).status).toBe(401);
    const [audit] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "api_key.revoked"), eq(auditEvents.targetId, out.body.id)));
    expect(audit).toMatchObject({ actorType: "api_key", actorId: out.body.id });
    const again = await cliApi(app, "POST", "/logout", { key });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe("invalid_api_key");
    expect((await cliApi(app, "POST", "/logout", {})).status).toBe(401);
  });
});
