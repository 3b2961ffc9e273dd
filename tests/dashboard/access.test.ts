import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash, sessionCookie, type Operator } from "./support";

let app: TestApp;
let acme: Seeded;
let other: Seeded;
const ops = {} as Record<"owner" | "admin" | "developer" | "viewer" | "outsider", Operator>;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed({ orgName: "Acme" });
  other = await app.seed({ orgName: "Other" });
  for (const role of ["owner", "admin", "developer", "viewer"] as const) ops[role] = await addOperator(app, acme, role);
  ops.outsider = await addOperator(app, other, "owner");
});
afterAll(() => app.close());

describe("dashboard sessions", () => {
  it("refuses signed-out and forged sessions with 401 unauthenticated", async () => {
    const me = await dash(app, "GET", "/me");
    expect(me.status).toBe(401);
    expect(me.body.error).toBe("unauthenticated");
    const project = await dash(app, "GET", `/projects/${acme.projectId}/conversations`);
    expect(project.status).toBe(401);
    const forged = await dash(app, "GET", "/me", { headers: { cookie: "next-auth.session-token=not-a-jwt" } });
    expect(forged.status).toBe(401);
  });

  it("tells an operator who they are, their organizations, roles and projects", async () => {
    const me = await dash(app, "GET", "/me", { as: ops.viewer });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(ops.viewer.email);
    expect(me.body.organizations).toEqual([{ id: acme.orgId, name: "Acme", role: "viewer", projects: [{ id: acme.projectId, name: "Main" }] }]);
  });

  it("answers another organization's project with 404, never its data", async () => {
    const res = await dash(app, "GET", `/projects/${other.projectId}/conversations`, { as: ops.owner });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    const byId = await dash(app, "GET", `/projects/${acme.projectId}/projects/${other.projectId}`, { as: ops.owner });
    expect(byId.status).toBe(404);
  });

  it("a user removed from the organization loses access at once", async () => {
    const gone = await addOperator(app, acme, "developer");
    expect((await dash(app, "GET", `/projects/${acme.projectId}/channels`, { as: gone })).status).toBe(200);
    const members = await dash(app, "GET", `/projects/${acme.projectId}/members`, { as: ops.admin });
    const member = members.body.data.find((m: { user_id: string }) => m.user_id === gone.userId);
    expect((await dash(app, "DELETE", `/projects/${acme.projectId}/members/${member.id}`, { as: ops.admin })).status).toBe(200);
    expect((await dash(app, "GET", `/projects/${acme.projectId}/channels`, { as: gone })).status).toBe(404);
  });

  it("refuses cross-site writes", async () => {
    const res = await dash(app, "PATCH", `/projects/${acme.projectId}/projects/${acme.projectId}`, {
      as: ops.owner,
      body: { require_opt_in: false },
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("forbidden");
    const same = await dash(app, "PATCH", `/projects/${acme.projectId}/projects/${acme.projectId}`, {
      as: ops.owner,
      body: { require_opt_in: true },
      headers: { origin: "http://svc.test" },
    });
    expect(same.status).toBe(200);
  });

  it("a session for a user that no longer exists is signed out", async () => {
    const ghost = await sessionCookie("usr_01ghost0000000000000000000", "ghost@example.test");
    const res = await dash(app, "GET", "/me", { headers: { cookie: ghost } });
    expect(res.status).toBe(401);
  });
});

describe("roles are enforced on every operation", () => {
  it("viewers read but cannot write, with the permission they lack named", async () => {
    const base = `/projects/${acme.projectId}`;
    expect((await dash(app, "GET", `${base}/conversations`, { as: ops.viewer })).status).toBe(200);
    expect((await dash(app, "GET", `${base}/readiness`, { as: ops.viewer })).status).toBe(200);
    expect((await dash(app, "GET", `${base}/keys`, { as: ops.viewer })).status).toBe(200);
    const patch = await dash(app, "PATCH", `${base}/projects/${acme.projectId}`, { as: ops.viewer, body: { routing_mode: "FLOWS" } });
    expect(patch.status).toBe(403);
    expect(patch.body).toMatchObject({ error: "insufficient_scope", required_scope: "projects:write" });
    const send = await dash(app, "POST", `${base}/messages`, { as: ops.viewer, body: {} });
    expect(send.body).toMatchObject({ error: "insufficient_scope", required_scope: "messages:send" });
    const key = await dash(app, "POST", `${base}/keys`, { as: ops.viewer, body: { name: "x", scopes: ["*"] } });
    expect(key.body).toMatchObject({ error: "insufficient_scope", required_scope: "keys:write" });
  });

  it("a viewer never receives the webhook signing secret; developers and up do, and an API key keeps it (spec)", async () => {
    const path = `/projects/${acme.projectId}/projects/${acme.projectId}`;
    const secret = (await app.call("GET", `/projects/${acme.projectId}`, { key: acme.key })).body.webhook_secret;
    expect(secret).toMatch(/^whsec_/);
    const viewer = await dash(app, "GET", path, { as: ops.viewer });
    expect(viewer.status).toBe(200);
    // Signing is on, the secret is withheld: nowhere in the answer.
    expect(viewer.body).toMatchObject({ id: acme.projectId, webhook_signing_enabled: true, webhook_secret: null });
    expect(JSON.stringify(viewer.body)).not.toContain(secret);
    for (const role of ["developer", "admin", "owner"] as const) {
      expect((await dash(app, "GET", path, { as: ops[role] })).body.webhook_secret, role).toBe(secret);
    }
    // Rotating (the other way to a secret) needs projects:write, which the viewer lacks.
    const rotate = await dash(app, "POST", `${path}/rotate-webhook-secret`, { as: ops.viewer });
    expect(rotate.body).toMatchObject({ error: "insufficient_scope", required_scope: "projects:write" });
    // A read-only API key still gets it: the spec returns webhook_secret from GET /projects/{id}.
    const reader = await app.addKey(acme, ["projects:read"]);
    expect((await app.call("GET", `/projects/${acme.projectId}`, { key: reader })).body.webhook_secret).toBe(secret);
  });

  it("developers write through the API and manage keys, but not members", async () => {
    const base = `/projects/${acme.projectId}`;
    const patch = await dash(app, "PATCH", `${base}/projects/${acme.projectId}`, { as: ops.developer, body: { routing_mode: "FLOWS" } });
    expect(patch.status).toBe(200);
    expect(patch.body.routing_mode).toBe("FLOWS");
    const invite = await dash(app, "POST", `${base}/members`, { as: ops.developer, body: { email: "new@example.test", role: "viewer" } });
    expect(invite.body).toMatchObject({ error: "insufficient_scope", required_scope: "members:write" });
  });

  it("admins manage members but only owners manage owners", async () => {
    const base = `/projects/${acme.projectId}`;
    const invite = await dash(app, "POST", `${base}/members`, { as: ops.admin, body: { email: "boss@example.test", role: "owner" } });
    expect(invite.status).toBe(403);
    expect(invite.body.required_scope).toBe("owners:write");
    const members = (await dash(app, "GET", `${base}/members`, { as: ops.admin })).body.data as { id: string; role: string; user_id: string }[];
    const owner = members.find((m) => m.user_id === ops.owner.userId)!;
    expect((await dash(app, "PATCH", `${base}/members/${owner.id}`, { as: ops.admin, body: { role: "viewer" } })).status).toBe(403);
    const viewer = members.find((m) => m.user_id === ops.viewer.userId)!;
    const promoted = await dash(app, "PATCH", `${base}/members/${viewer.id}`, { as: ops.admin, body: { role: "developer" } });
    expect(promoted.body.role).toBe("developer");
    await dash(app, "PATCH", `${base}/members/${viewer.id}`, { as: ops.admin, body: { role: "viewer" } });
  });

  it("the last owner can be neither demoted nor removed", async () => {
    const base = `/projects/${acme.projectId}`;
    const members = (await dash(app, "GET", `${base}/members`, { as: ops.owner })).body.data as { id: string; user_id: string }[];
    const self = members.find((m) => m.user_id === ops.owner.userId)!;
    const demote = await dash(app, "PATCH", `${base}/members/${self.id}`, { as: ops.owner, body: { role: "admin" } });
    expect(demote.status).toBe(409);
    expect((await dash(app, "DELETE", `${base}/members/${self.id}`, { as: ops.owner })).status).toBe(409);
  });

  it("a member id of another organization is a 404", async () => {
    const theirs = (await dash(app, "GET", `/projects/${other.projectId}/members`, { as: ops.outsider })).body.data[0].id as string;
    const res = await dash(app, "PATCH", `/projects/${acme.projectId}/members/${theirs}`, { as: ops.owner, body: { role: "viewer" } });
    expect(res.status).toBe(404);
  });
});
