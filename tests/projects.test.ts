import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import { activeWebhookSecrets } from "@/lib/domain/projects";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import {
  PROJECT_FIELDS,
  PROJECT_LIST_FIELDS,
  WEBHOOK_SECRET,
  customWebhookSecret,
  expectError,
  expectHandlerHeaders,
  expectRateLimitHeaders,
} from "./support/wire";

let app: TestApp;
let acme: Seeded;
/** Another organization. */
let globex: Seeded;
/** A second project in acme's organization, with its own key. */
let sibling: { projectId: string; key: string };

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  globex = await app.seed({ orgName: "Globex", projectName: "Globex main" });
  sibling = await app.addProject(acme);
});
afterAll(() => app?.close());

const HOUR = 3600_000;

async function projectRow(id: string) {
  const [row] = await app.db.select().from(projects).where(eq(projects.id, id));
  return row!;
}

async function orgProjects(orgId: string) {
  return app.db.select().from(projects).where(eq(projects.organizationId, orgId));
}

/** A fresh organization with one project and a `*` key, for tests that change the project. */
async function freshProject(name = "Fresh") {
  return app.seed({ orgName: `${name} org`, projectName: name });
}

describe("GET /projects", () => {
  it("lists only the key's project, without the signing secret", async () => {
    const res = await app.call("GET", "/projects", { key: acme.key });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe("list");
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((p: any) => p.id)).toEqual([acme.projectId]);
    expect(res.body.data[0]).not.toHaveProperty("webhook_secret");
    expect(res.body.data[0].webhook_signing_enabled).toBe(true);
  });

  it("the list wrapper has exactly object, data, has_more, and items have exactly the list fields", async () => {
    const res = await app.call("GET", "/projects", { key: acme.key });
    expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "object"]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(PROJECT_LIST_FIELDS);
    expectHandlerHeaders(res);
    expectRateLimitHeaders(res);
  });

  it("a sibling project's key and another organization's key each see only their own project", async () => {
    const siblingList = await app.call("GET", "/projects", { key: sibling.key });
    expect(siblingList.body.data.map((p: any) => p.id)).toEqual([sibling.projectId]);
    const globexList = await app.call("GET", "/projects", { key: globex.key });
    expect(globexList.body.data.map((p: any) => p.id)).toEqual([globex.projectId]);
  });

  it("the list item equals the single GET minus webhook_secret", async () => {
    const list = await app.call("GET", "/projects", { key: acme.key });
    const single = await app.call("GET", `/projects/${acme.projectId}`, { key: acme.key });
    const { webhook_secret: _secret, ...withoutSecret } = single.body;
    expect(list.body.data[0]).toEqual(withoutSecret);
  });
});

describe("GET /projects/{id}", () => {
  it("returns every Project field, with the webhook secret and the sandbox as enrollment channel", async () => {
    const res = await app.call("GET", `/projects/${acme.projectId}`, { key: acme.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(PROJECT_FIELDS);
    const row = await projectRow(acme.projectId);
    expect(res.body).toEqual({
      object: "project",
      id: acme.projectId,
      project_id: acme.projectId,
      name: "Main",
      description: null,
      routing_mode: "EXTERNAL",
      join_code: row.joinCode,
      require_opt_in: true,
      webhook_url: null,
      webhook_signing_enabled: true,
      webhook_secret: expect.stringMatching(WEBHOOK_SECRET),
      channel_id: null,
      enrollment_channel: expect.objectContaining({
        object: "channel",
        id: SANDBOX_CHANNEL_ID,
        channel_id: SANDBOX_CHANNEL_ID,
        platform: "PLATFORM_A",
        is_sandbox: true,
        number_mode: "sandbox",
        status: "connected",
      }),
      publish_readiness: {
        mode: "sandbox",
        can_publish_flows: true,
        can_submit_templates: false,
        business_verification_status: "verified",
        account_review_status: "APPROVED",
        phone_number_status: "CONNECTED",
        blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"],
      },
      participant_count: 0,
      flow_count: 0,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    });
    expect(res.body.id).toMatch(/^proj_[0-9a-z]{26}$/);
    expect(res.body.join_code).toMatch(/^[a-z2-9]{8}$/);
  });

  it("the secret is stored sealed, never in plain text", async () => {
    const res = await app.call("GET", `/projects/${acme.projectId}`, { key: acme.key });
    const row = await projectRow(acme.projectId);
    expect(row.webhookSecretSealed).not.toContain(res.body.webhook_secret.slice("whsec_".length));
    expect(row.webhookSecretSealed).toMatch(/^v1\./);
  });

  it("404 not_found for an unknown id, with Svc-Version", async () => {
    const res = await app.call("GET", "/projects/proj_00000000000000000000000000", { key: acme.key });
    expectError(res, 404, "not_found");
    expectHandlerHeaders(res);
  });

  it("404 for another organization's project and for a sibling project (tenant isolation)", async () => {
    for (const id of [globex.projectId, sibling.projectId]) {
      const res = await app.call("GET", `/projects/${id}`, { key: acme.key });
      expectError(res, 404, "not_found");
      expect(JSON.stringify(res.body)).not.toContain("Globex");
    }
  });

  it("another project's 404 looks exactly like a nonexistent id's (existence is not revealed)", async () => {
    const other = await app.call("GET", `/projects/${globex.projectId}`, { key: acme.key });
    const missing = await app.call("GET", `/projects/${globex.projectId.slice(0, -1)}0`, { key: acme.key });
    expect(other.status).toBe(missing.status);
    expect(Object.keys(other.body).sort()).toEqual(Object.keys(missing.body).sort());
    expect(other.body.message.replace(globex.projectId, "X")).toBe(missing.body.message.replace(`${globex.projectId.slice(0, -1)}0`, "X"));
  });

  it("400 for an id longer than 200 characters", async () => {
    const res = await app.call("GET", `/projects/${"p".repeat(201)}`, { key: acme.key });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toHaveProperty("id");
  });
});

describe("POST /projects", () => {
  it("creates a project in the key's organization with defaults and a generated secret", async () => {
    const res = await app.call("POST", "/projects", { key: acme.key, body: { name: "Created" } });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(PROJECT_FIELDS);
    expect(res.body).toMatchObject({
      object: "project",
      name: "Created",
      description: null,
      routing_mode: "EXTERNAL",
      require_opt_in: true,
      webhook_url: null,
      webhook_signing_enabled: true,
      channel_id: null,
      participant_count: 0,
      flow_count: 0,
      created_at: app.clock.now().toISOString(),
      updated_at: app.clock.now().toISOString(),
    });
    expect(res.body.project_id).toBe(res.body.id);
    expect(res.body.webhook_secret).toMatch(WEBHOOK_SECRET);
    const row = await projectRow(res.body.id);
    expect(row.organizationId).toBe(acme.orgId);
    expect(row.joinCode).toBe(res.body.join_code);
  });

  it("the new project is a 404 for the key that created it (a key sees only its own project)", async () => {
    const created = await app.call("POST", "/projects", { key: acme.key, body: { name: "Invisible" } });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expectError(await app.call("GET", `/projects/${id}`, { key: acme.key }), 404, "not_found");
    expectError(await app.call("PATCH", `/projects/${id}`, { key: acme.key, body: { name: "x" } }), 404, "not_found");
    expectError(await app.call("POST", `/projects/${id}/rotate-webhook-secret`, { key: acme.key }), 404, "not_found");
    const list = await app.call("GET", "/projects", { key: acme.key });
    expect(list.body.data.map((p: any) => p.id)).toEqual([acme.projectId]);
  });

  it("accepts every writable field", async () => {
    const secret = customWebhookSecret();
    const res = await app.call("POST", "/projects", {
      key: acme.key,
      body: {
        name: "Full",
        description: "All fields",
        routing_mode: "FLOWS",
        require_opt_in: false,
        webhook_url: "https://hooks.example.com/svc",
        webhook_secret: secret,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Full",
      description: "All fields",
      routing_mode: "FLOWS",
      require_opt_in: false,
      webhook_url: "https://hooks.example.com/svc",
      webhook_signing_enabled: true,
      webhook_secret: secret,
    });
    const row = await projectRow(res.body.id);
    expect(activeWebhookSecrets(row, app.clock.now())).toEqual([secret]);
  });

  it("routing_mode AGENT is accepted", async () => {
    const res = await app.call("POST", "/projects", { key: acme.key, body: { name: "Agent", routing_mode: "AGENT" } });
    expect(res.status).toBe(200);
    expect(res.body.routing_mode).toBe("AGENT");
  });

  it("webhook_secret null creates a project without signing", async () => {
    const res = await app.call("POST", "/projects", { key: acme.key, body: { name: "Unsigned", webhook_secret: null } });
    expect(res.status).toBe(200);
    expect(res.body.webhook_signing_enabled).toBe(false);
    expect(res.body.webhook_secret).toBeNull();
  });

  it("trims the name", async () => {
    const res = await app.call("POST", "/projects", { key: acme.key, body: { name: "  Padded  " } });
    expect(res.body.name).toBe("Padded");
  });

  it("every project gets its own join code and secret", async () => {
    const a = await app.call("POST", "/projects", { key: acme.key, body: { name: "A" } });
    const b = await app.call("POST", "/projects", { key: acme.key, body: { name: "B" } });
    expect(a.body.join_code).not.toBe(b.body.join_code);
    expect(a.body.webhook_secret).not.toBe(b.body.webhook_secret);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "   " }, "name"],
    [{ name: "x".repeat(201) }, "name"],
    [{ name: 42 }, "name"],
    [{ name: "x", routing_mode: "BOGUS" }, "routing_mode"],
    [{ name: "x", require_opt_in: "yes" }, "require_opt_in"],
    [{ name: "x", webhook_url: "not a url" }, "webhook_url"],
    [{ name: "x", webhook_url: "ftp://example.com/hook" }, "webhook_url"],
    [{ name: "x", description: "d".repeat(2001) }, "description"],
    [{ name: "x", webhook_secret: 123 }, "webhook_secret"],
  ])("400 invalid_request for %j, keyed by %s", async (body, field) => {
    const before = (await orgProjects(acme.orgId)).length;
    const res = await app.call("POST", "/projects", { key: acme.key, body });
    expectError(res, 400, "invalid_request");
    expectHandlerHeaders(res);
    expect(Object.keys(res.body.issues)).toEqual([field]);
    expect(res.body.issues[field]).toEqual([expect.any(String)]);
    expect((await orgProjects(acme.orgId)).length).toBe(before);
  });

  it.each(["whsec_short", "not-a-secret", "whsec_" + Buffer.alloc(16, 1).toString("base64"), "whsec_" + Buffer.alloc(65, 1).toString("base64"), "whsec_!!!!"])(
    "400 invalid_request on an invalid custom webhook_secret %s, nothing created",
    async (secret) => {
      const before = (await orgProjects(acme.orgId)).length;
      const res = await app.call("POST", "/projects", { key: acme.key, body: { name: "Bad secret", webhook_secret: secret } });
      expectError(res, 400, "invalid_request");
      expect(Object.keys(res.body.issues)).toEqual(["webhook_secret"]);
      expect((await orgProjects(acme.orgId)).length).toBe(before);
    },
  );

  it("a 24-byte and a 64-byte custom secret are both valid", async () => {
    for (const bytes of [24, 64]) {
      const secret = customWebhookSecret(bytes);
      const res = await app.call("POST", "/projects", { key: acme.key, body: { name: `S${bytes}`, webhook_secret: secret } });
      expect(res.status).toBe(200);
      expect(res.body.webhook_secret).toBe(secret);
    }
  });

  it("400 when the body is a JSON array or a string (issues keyed by 'body')", async () => {
    for (const rawBody of ["[]", '"name"', "null", "42"]) {
      const res = await app.call("POST", "/projects", { key: acme.key, rawBody, headers: { "content-type": "application/json" } });
      expectError(res, 400, "invalid_request");
      expect(Object.keys(res.body.issues)).toEqual(["body"]);
    }
  });
});

describe("mass assignment (read-only fields are refused, nothing changes)", () => {
  const READ_ONLY: Record<string, unknown> = {
    id: "proj_01jzzzzzzzzzzzzzzzzzzzzzzz",
    project_id: "proj_01jzzzzzzzzzzzzzzzzzzzzzzz",
    object: "project",
    join_code: "aaaaaaaa",
    created_at: "2020-01-01T00:00:00.000Z",
    updated_at: "2020-01-01T00:00:00.000Z",
    webhook_signing_enabled: false,
    organization_id: "org_01jzzzzzzzzzzzzzzzzzzzzzzz",
    channel_id: "ch_sandbox",
    participant_count: 99,
    flow_count: 99,
    enrollment_channel: null,
    publish_readiness: null,
  };

  it.each(Object.entries(READ_ONLY))("POST /projects with %s → 400 keyed by the field, nothing created", async (field, value) => {
    const before = (await orgProjects(acme.orgId)).length;
    const res = await app.call("POST", "/projects", { key: acme.key, body: { name: "Mass", [field]: value } });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual([field]);
    expect((await orgProjects(acme.orgId)).length).toBe(before);
  });

  it.each(Object.entries(READ_ONLY))("PATCH /projects/{id} with %s → 400 keyed by the field, nothing changed", async (field, value) => {
    const before = await projectRow(acme.projectId);
    const res = await app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { name: "Changed by mass", [field]: value } });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual([field]);
    expect(await projectRow(acme.projectId)).toEqual(before);
  });

  it("several read-only fields are each reported", async () => {
    const res = await app.call("POST", "/projects", { key: acme.key, body: { name: "Mass", id: "proj_x", join_code: "x", organization_id: "org_x" } });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues).sort()).toEqual(["id", "join_code", "organization_id"]);
  });

  it("a project cannot be moved to another organization", async () => {
    const res = await app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { organization_id: globex.orgId } });
    expectError(res, 400, "invalid_request");
    expect((await projectRow(acme.projectId)).organizationId).toBe(acme.orgId);
  });
});

describe("PATCH /projects/{id}", () => {
  it("updates every writable field, bumps updated_at and keeps created_at", async () => {
    const p = await freshProject("Patchable");
    const before = await app.call("GET", `/projects/${p.projectId}`, { key: p.key });
    app.clock.advance(5 * 60_000);
    const secret = customWebhookSecret();
    const res = await app.call("PATCH", `/projects/${p.projectId}`, {
      key: p.key,
      body: {
        name: "Renamed",
        description: "Now described",
        routing_mode: "FLOWS",
        require_opt_in: false,
        webhook_url: "https://example.com/in",
        webhook_secret: secret,
      },
    });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(PROJECT_FIELDS);
    expect(res.body).toEqual({
      ...before.body,
      name: "Renamed",
      description: "Now described",
      routing_mode: "FLOWS",
      require_opt_in: false,
      webhook_url: "https://example.com/in",
      webhook_secret: secret,
      webhook_signing_enabled: true,
      updated_at: app.clock.now().toISOString(),
      // The sandbox warned that inbound went nowhere without a webhook_url; now it routes FLOWS, where no automation answers yet.
      enrollment_channel: {
        ...before.body.enrollment_channel,
        routing_warning: expect.stringMatching(/^Your project routes FLOWS but it has no active automation/),
      },
    });
    expect(before.body.enrollment_channel.routing_warning).toMatch(/no webhook_url/);
    expect(res.body.created_at).toBe(before.body.created_at);
    const again = await app.call("GET", `/projects/${p.projectId}`, { key: p.key });
    expect(again.body).toEqual(res.body);
  });

  it("a partial update leaves the other fields alone", async () => {
    const p = await freshProject("Partial");
    await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { description: "keep me", webhook_url: "https://example.com/a" } });
    const before = await app.call("GET", `/projects/${p.projectId}`, { key: p.key });
    const res = await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { name: "Only name" } });
    expect(res.body).toEqual({ ...before.body, name: "Only name", updated_at: res.body.updated_at });
  });

  it("an empty body changes nothing but updated_at", async () => {
    const p = await freshProject("Empty");
    const before = await app.call("GET", `/projects/${p.projectId}`, { key: p.key });
    const res = await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: {} });
    expect(res.status).toBe(200);
    expect({ ...res.body, updated_at: null }).toEqual({ ...before.body, updated_at: null });
  });

  it("null clears description and webhook_url", async () => {
    const p = await freshProject("Nulls");
    await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { description: "d", webhook_url: "https://example.com/x" } });
    const res = await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { description: null, webhook_url: null } });
    expect(res.body.description).toBeNull();
    expect(res.body.webhook_url).toBeNull();
  });

  it("name cannot be null or empty", async () => {
    const p = await freshProject("Named");
    for (const name of [null, "", "   "]) {
      const res = await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { name } });
      expectError(res, 400, "invalid_request");
      expect(Object.keys(res.body.issues)).toEqual(["name"]);
    }
    expect((await projectRow(p.projectId)).name).toBe("Named");
  });

  it("400 invalid_request on an invalid webhook_secret, nothing changed", async () => {
    const p = await freshProject("Secretive");
    const before = await projectRow(p.projectId);
    const res = await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { name: "Changed", webhook_secret: "whsec_nope" } });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual(["webhook_secret"]);
    expect(await projectRow(p.projectId)).toEqual(before);
  });

  it("webhook_secret null turns signing off; a custom secret turns it back on", async () => {
    const p = await freshProject("Signing");
    const off = await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { webhook_secret: null } });
    expect(off.status).toBe(200);
    expect(off.body.webhook_signing_enabled).toBe(false);
    expect(off.body.webhook_secret).toBeNull();
    const list = await app.call("GET", "/projects", { key: p.key });
    expect(list.body.data[0].webhook_signing_enabled).toBe(false);
    expect(activeWebhookSecrets(await projectRow(p.projectId), app.clock.now())).toEqual([]);
    const secret = customWebhookSecret();
    const on = await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { webhook_secret: secret } });
    expect(on.body.webhook_signing_enabled).toBe(true);
    expect(on.body.webhook_secret).toBe(secret);
  });

  it("404 for another organization's and a sibling project's id, and they are not changed", async () => {
    for (const id of [globex.projectId, sibling.projectId]) {
      const before = await projectRow(id);
      const res = await app.call("PATCH", `/projects/${id}`, { key: acme.key, body: { name: "Hijacked", webhook_url: "https://evil.example.com" } });
      expectError(res, 404, "not_found");
      expectHandlerHeaders(res);
      expect(await projectRow(id)).toEqual(before);
    }
  });

  it("400 invalid_json on a broken body", async () => {
    const res = await app.call("PATCH", `/projects/${acme.projectId}`, {
      key: acme.key,
      rawBody: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    expectError(res, 400, "invalid_json");
    expectHandlerHeaders(res);
  });
});

describe("POST /projects/{id}/rotate-webhook-secret", () => {
  it("returns exactly {object, project_id, webhook_secret} with a new whsec_ value, and GET shows it", async () => {
    const p = await freshProject("Rotating");
    const before = await app.call("GET", `/projects/${p.projectId}`, { key: p.key });
    const res = await app.call("POST", `/projects/${p.projectId}/rotate-webhook-secret`, { key: p.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(res.body).toEqual({ object: "project_webhook_secret", project_id: p.projectId, webhook_secret: expect.stringMatching(WEBHOOK_SECRET) });
    expect(res.body.webhook_secret).not.toBe(before.body.webhook_secret);
    const after = await app.call("GET", `/projects/${p.projectId}`, { key: p.key });
    expect(after.body.webhook_secret).toBe(res.body.webhook_secret);
    expect(after.body.webhook_signing_enabled).toBe(true);
    const list = await app.call("GET", "/projects", { key: p.key });
    expect(list.body.data[0]).not.toHaveProperty("webhook_secret");
    expect(JSON.stringify(list.body)).not.toContain(res.body.webhook_secret);
  });

  it("each rotation gives a different secret", async () => {
    const p = await freshProject("Twice");
    const a = await app.call("POST", `/projects/${p.projectId}/rotate-webhook-secret`, { key: p.key });
    const b = await app.call("POST", `/projects/${p.projectId}/rotate-webhook-secret`, { key: p.key });
    expect(a.body.webhook_secret).not.toBe(b.body.webhook_secret);
  });

  it("the previous secret keeps signing for 24 h, then only the new one", async () => {
    const p = await freshProject("Rollover");
    const old = (await app.call("GET", `/projects/${p.projectId}`, { key: p.key })).body.webhook_secret;
    const rotated = (await app.call("POST", `/projects/${p.projectId}/rotate-webhook-secret`, { key: p.key })).body.webhook_secret;
    const row = await projectRow(p.projectId);
    expect(activeWebhookSecrets(row, app.clock.now())).toEqual([rotated, old]);
    expect(activeWebhookSecrets(row, new Date(app.clock.now().getTime() + 23 * HOUR))).toEqual([rotated, old]);
    expect(activeWebhookSecrets(row, new Date(app.clock.now().getTime() + 24 * HOUR + 1))).toEqual([rotated]);
  });

  it("turns signing on for a project that had none", async () => {
    const p = await freshProject("Unsigned");
    await app.call("PATCH", `/projects/${p.projectId}`, { key: p.key, body: { webhook_secret: null } });
    const res = await app.call("POST", `/projects/${p.projectId}/rotate-webhook-secret`, { key: p.key });
    expect(res.body.webhook_secret).toMatch(WEBHOOK_SECRET);
    const after = await app.call("GET", `/projects/${p.projectId}`, { key: p.key });
    expect(after.body.webhook_signing_enabled).toBe(true);
    expect(activeWebhookSecrets(await projectRow(p.projectId), app.clock.now())).toEqual([res.body.webhook_secret]);
  });

  it("404 for another organization's and a sibling project's id, and their secret is unchanged", async () => {
    for (const id of [globex.projectId, sibling.projectId]) {
      const before = await projectRow(id);
      const res = await app.call("POST", `/projects/${id}/rotate-webhook-secret`, { key: acme.key });
      expectError(res, 404, "not_found");
      expect(await projectRow(id)).toEqual(before);
    }
  });

  it("404 for an unknown id", async () => {
    expectError(await app.call("POST", "/projects/proj_nope/rotate-webhook-secret", { key: acme.key }), 404, "not_found");
  });
});

describe("invalid JSON bodies", () => {
  it.each(["{", '{"name": "x",}', "name=x", "{'name': 'x'}"])("POST /projects with %j → 400 invalid_json, nothing created", async (rawBody) => {
    const before = (await orgProjects(acme.orgId)).length;
    const res = await app.call("POST", "/projects", { key: acme.key, rawBody, headers: { "content-type": "application/json" } });
    expectError(res, 400, "invalid_json");
    expectHandlerHeaders(res);
    expectRateLimitHeaders(res);
    expect((await orgProjects(acme.orgId)).length).toBe(before);
  });

  it("an empty body on POST /projects is invalid_json", async () => {
    const res = await app.call("POST", "/projects", { key: acme.key });
    expectError(res, 400, "invalid_json");
  });

  it("rotate accepts an empty body but not a broken one", async () => {
    const p = await freshProject("Bodyless");
    expect((await app.call("POST", `/projects/${p.projectId}/rotate-webhook-secret`, { key: p.key })).status).toBe(200);
    const broken = await app.call("POST", `/projects/${p.projectId}/rotate-webhook-secret`, { key: p.key, rawBody: "{oops" });
    expectError(broken, 400, "invalid_json");
  });
});
