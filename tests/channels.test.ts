import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { automations, businessAgents, channels, projects } from "@/lib/db/schema";
import { insertAutomation } from "./automations/support";
import { newId } from "@/lib/ids";
import { unseal } from "@/lib/crypto/secrets";
import { createProjectRow } from "@/lib/domain/projects";
import { createApiKey, forgetAuthenticatedKeys } from "@/lib/domain/keys";
import { setOrganizationPlatform } from "@/lib/domain/organizations";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { expectError, expectHandlerHeaders, expectRateLimitHeaders } from "./support/wire";

let app: TestApp;
/** An organization without PLATFORM_B / PLATFORM_C. */
let acme: Seeded;
/** Another organization, with B and C activated. */
let globex: Seeded;
let globexChannelId: string;

/** Every field of the Channel wire object (docs/spec/service-spec.md: Channel). */
const CHANNEL_FIELDS = [
  "object",
  "id",
  "channel_id",
  "platform",
  "status",
  "display_name",
  "phone_number",
  "routing_mode",
  "number_mode",
  "is_sandbox",
  "routing_warning",
  "publish_readiness",
].sort();

const CHANNEL_ID = /^ch_[0-9a-z]{26}$/;
const WEBHOOK_URL = "https://hooks.example.com/svc";

const SANDBOX_READINESS = {
  mode: "sandbox",
  can_publish_flows: true,
  can_submit_templates: false,
  business_verification_status: "verified",
  account_review_status: "APPROVED",
  phone_number_status: "CONNECTED",
  blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"],
};

/** The shared sandbox as a project with the given routing_warning sees it. */
function sandboxWire(routingWarning: string | null | ReturnType<typeof expect.any>) {
  return {
    object: "channel",
    id: SANDBOX_CHANNEL_ID,
    channel_id: SANDBOX_CHANNEL_ID,
    platform: "PLATFORM_A",
    status: "connected",
    display_name: "svc Sandbox",
    phone_number: "+15550000000",
    routing_mode: "EXTERNAL",
    number_mode: "sandbox",
    is_sandbox: true,
    routing_warning: routingWarning,
    publish_readiness: SANDBOX_READINESS,
  };
}

let serial = 0;
/** Provider ids unique across the file (a sender id can be connected only once per platform). */
function providerId(prefix: string) {
  serial += 1;
  return `${prefix}${Date.now().toString(36)}${serial}`;
}

function aCredentials() {
  return { phone_number_id: providerId("pn"), business_account_id: providerId("waba"), access_token: `EAAG-secret-${providerId("tok")}` };
}
function bCredentials() {
  return { account_id: providerId("ig"), access_token: `IGQV-secret-${providerId("tok")}` };
}
function cCredentials() {
  return { page_id: providerId("page"), access_token: `EAAP-secret-${providerId("tok")}` };
}

async function connectA(key: string, extra: Record<string, unknown> = {}) {
  const credentials = aCredentials();
  const res = await app.call("POST", "/channels", {
    key,
    body: { platform: "PLATFORM_A", display_name: "Support", phone_number: "+14155550100", credentials, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { channel: res.body, credentials };
}

async function channelRow(id: string) {
  const [row] = await app.db.select().from(channels).where(eq(channels.id, id));
  return row!;
}

async function projectRow(id: string) {
  const [row] = await app.db.select().from(projects).where(eq(projects.id, id));
  return row!;
}

async function orgChannelCount(orgId: string) {
  return (await app.db.select().from(channels).where(eq(channels.organizationId, orgId))).length;
}

async function setPlatforms(orgId: string, b: boolean, c: boolean) {
  await setOrganizationPlatform(app.db, orgId, "PLATFORM_B", b, app.clock.now());
  await setOrganizationPlatform(app.db, orgId, "PLATFORM_C", c, app.clock.now());
}

async function setProject(id: string, values: Partial<typeof projects.$inferInsert>) {
  await app.db.update(projects).set(values).where(eq(projects.id, id));
  // As the projects module's writes do: the keys this process keeps carry the project (keys/auth-cache.ts).
  forgetAuthenticatedKeys();
}

async function setChannel(id: string, values: Partial<typeof channels.$inferInsert>) {
  await app.db.update(channels).set(values).where(eq(channels.id, id));
}

/** A fresh organization (B and C activated unless told otherwise) with one project and a `*` key. */
async function fresh(name: string, platforms = true) {
  const seeded = await app.seed({ orgName: `${name} org`, projectName: name });
  if (platforms) await setPlatforms(seeded.orgId, true, true);
  return seeded;
}

/** A second project with its own `*` key in the same organization. */
async function siblingOf(seeded: Seeded, name = "Sibling") {
  const row = await createProjectRow(app.db, seeded.orgId, { name }, app.clock.now());
  const { value } = await createApiKey(app.db, { organizationId: seeded.orgId, projectId: row.id, kind: "secret", scopes: ["*"] });
  return { ...seeded, projectId: row.id, key: value };
}

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  globex = await fresh("Globex");
  globexChannelId = (await connectA(globex.key)).channel.id;
});
afterAll(() => app?.close());

describe("GET /channels", () => {
  it("a new organization sees exactly the shared sandbox, with every Channel field", async () => {
    const seeded = await fresh("Lonely");
    const res = await app.call("GET", "/channels", { key: seeded.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expectRateLimitHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "object"]);
    expect(res.body).toEqual({ object: "list", data: [sandboxWire(expect.any(String))], has_more: false });
    expect(Object.keys(res.body.data[0]).sort()).toEqual(CHANNEL_FIELDS);
  });

  it("lists the sandbox first, then the organization's own channels newest first", async () => {
    const seeded = await fresh("Lister");
    const first = (await connectA(seeded.key)).channel;
    app.clock.advance(1000);
    const second = (await connectA(seeded.key)).channel;
    const res = await app.call("GET", "/channels", { key: seeded.key });
    expect(res.body.data.map((c: any) => c.id)).toEqual([SANDBOX_CHANNEL_ID, second.id, first.id]);
    expect(res.body.data[1]).toEqual((await app.call("GET", `/channels/${second.id}`, { key: seeded.key })).body);
  });

  it("never shows another organization's channels", async () => {
    const res = await app.call("GET", "/channels", { key: acme.key });
    const ids = res.body.data.map((c: any) => c.id);
    expect(ids).toContain(SANDBOX_CHANNEL_ID);
    expect(ids).not.toContain(globexChannelId);
    const globexIds = (await app.call("GET", "/channels", { key: globex.key })).body.data.map((c: any) => c.id);
    expect(globexIds).toEqual([SANDBOX_CHANNEL_ID, globexChannelId]);
  });

  it("a sibling project of the same organization sees the organization's channels", async () => {
    const sibling = await siblingOf(globex);
    const ids = (await app.call("GET", "/channels", { key: sibling.key })).body.data.map((c: any) => c.id);
    expect(ids).toEqual([SANDBOX_CHANNEL_ID, globexChannelId]);
  });

  it("PLATFORM_B and PLATFORM_C channels appear only while activated for the organization", async () => {
    const seeded = await fresh("Toggler");
    const b = await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_B", credentials: bCredentials() } });
    const c = await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_C", credentials: cCredentials() } });
    expect([b.status, c.status]).toEqual([200, 200]);
    const ids = async () => (await app.call("GET", "/channels", { key: seeded.key })).body.data.map((ch: any) => ch.id);
    expect(await ids()).toEqual([SANDBOX_CHANNEL_ID, c.body.id, b.body.id]);

    await setPlatforms(seeded.orgId, false, true);
    expect(await ids()).toEqual([SANDBOX_CHANNEL_ID, c.body.id]);
    expectError(await app.call("GET", `/channels/${b.body.id}`, { key: seeded.key }), 404, "not_found");
    expectError(await app.call("PATCH", `/channels/${b.body.id}`, { key: seeded.key, body: { routing_mode: "NONE" } }), 404, "not_found");

    await setPlatforms(seeded.orgId, false, false);
    expect(await ids()).toEqual([SANDBOX_CHANNEL_ID]);
    expectError(await app.call("GET", `/channels/${c.body.id}`, { key: seeded.key }), 404, "not_found");

    await setPlatforms(seeded.orgId, true, true);
    expect(await ids()).toEqual([SANDBOX_CHANNEL_ID, c.body.id, b.body.id]);
  });

  describe("paging", () => {
    let seeded: Seeded;
    let ids: string[];

    beforeAll(async () => {
      seeded = await fresh("Pager");
      const made: string[] = [];
      for (let i = 0; i < 3; i++) {
        app.clock.advance(1000);
        made.push((await connectA(seeded.key)).channel.id);
      }
      ids = [SANDBOX_CHANNEL_ID, ...made.reverse()];
    });

    it("limit and starting_after walk the list, has_more says when to stop", async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const res = await app.call("GET", `/channels?limit=2${cursor ? `&starting_after=${cursor}` : ""}`, { key: seeded.key });
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.map((c: any) => c.id));
        if (!res.body.has_more) break;
        cursor = res.body.data.at(-1).id;
      }
      expect(seen).toEqual(ids);
    });

    it("limit 1 gives the sandbox with has_more; after the sandbox come the own channels", async () => {
      const first = await app.call("GET", "/channels?limit=1", { key: seeded.key });
      expect(first.body.data.map((c: any) => c.id)).toEqual([SANDBOX_CHANNEL_ID]);
      expect(first.body.has_more).toBe(true);
      const rest = await app.call("GET", `/channels?starting_after=${SANDBOX_CHANNEL_ID}`, { key: seeded.key });
      expect(rest.body.data.map((c: any) => c.id)).toEqual(ids.slice(1));
      expect(rest.body.has_more).toBe(false);
    });

    it("a page that ends exactly at the last item has has_more false", async () => {
      const res = await app.call("GET", `/channels?limit=${ids.length}`, { key: seeded.key });
      expect(res.body.data).toHaveLength(ids.length);
      expect(res.body.has_more).toBe(false);
    });

    it("400 for an unknown cursor and for another organization's channel as cursor", async () => {
      for (const cursor of ["ch_00000000000000000000000000", globexChannelId]) {
        const res = await app.call("GET", `/channels?starting_after=${cursor}`, { key: seeded.key });
        expectError(res, 400, "invalid_request");
        expect(res.body.issues).toHaveProperty("starting_after");
      }
    });

    it.each(["0", "101", "abc", "-1"])("400 for limit=%s", async (limit) => {
      const res = await app.call("GET", `/channels?limit=${limit}`, { key: seeded.key });
      expectError(res, 400, "invalid_request");
      expect(res.body.issues).toHaveProperty("limit");
    });
  });
});

describe("POST /channels", () => {
  it("connects a PLATFORM_A channel: exact fields, no credentials in the response, sealed at rest", async () => {
    const seeded = await fresh("Connect A");
    const credentials = aCredentials();
    const res = await app.call("POST", "/channels", {
      key: seeded.key,
      body: { platform: "PLATFORM_A", display_name: "Support line", phone_number: "+14155550123", credentials },
    });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(CHANNEL_FIELDS);
    expect(res.body).toEqual({
      object: "channel",
      id: expect.stringMatching(CHANNEL_ID),
      channel_id: res.body.id,
      platform: "PLATFORM_A",
      status: "connected",
      display_name: "Support line",
      phone_number: "+14155550123",
      routing_mode: "EXTERNAL",
      number_mode: "dedicated",
      is_sandbox: false,
      routing_warning: expect.stringContaining("webhook_url"),
      publish_readiness: {
        mode: "dedicated",
        can_publish_flows: true,
        can_submit_templates: false,
        business_verification_status: null,
        account_review_status: null,
        phone_number_status: null,
        blockers: ["META_ACCOUNT_STATUS_UNKNOWN", "PAYMENT_STATUS_UNKNOWN"],
      },
    });
    const wire = JSON.stringify(res.body);
    for (const value of Object.values(credentials)) expect(wire).not.toContain(value);
    expect(wire).not.toContain("credentials");

    const row = await channelRow(res.body.id);
    expect(row).toMatchObject({
      organizationId: seeded.orgId,
      providerSenderId: credentials.phone_number_id,
      businessAccountId: credentials.business_account_id,
      numberMode: "dedicated",
      isSandbox: false,
    });
    expect(row.credentialsSealed).toMatch(/^v1\./);
    expect(row.credentialsSealed).not.toContain(credentials.access_token);
    expect(row.credentialsSealed).not.toContain(credentials.phone_number_id);
    expect(JSON.parse(unseal(row.credentialsSealed!))).toEqual(credentials);

    // Nor does GET or the list ever show them.
    const fetched = await app.call("GET", `/channels/${res.body.id}`, { key: seeded.key });
    expect(fetched.body).toEqual(res.body);
    const listed = JSON.stringify((await app.call("GET", "/channels", { key: seeded.key })).body);
    expect(listed).not.toContain(credentials.access_token);
  });

  it("display_name and phone_number are optional (null)", async () => {
    const seeded = await fresh("Minimal A");
    const res = await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_A", credentials: aCredentials() } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: null, phone_number: null, platform: "PLATFORM_A" });
  });

  it.each([
    ["PLATFORM_B", bCredentials, "account_id"],
    ["PLATFORM_C", cCredentials, "page_id"],
  ] as const)("connects a %s channel on an activated organization: publish_readiness null, no credentials", async (platform, credentialsOf, senderField) => {
    const seeded = await fresh(`Connect ${platform}`);
    const credentials: Record<string, string> = credentialsOf();
    const res = await app.call("POST", "/channels", { key: seeded.key, body: { platform, display_name: "Social", credentials } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: "channel",
      id: expect.stringMatching(CHANNEL_ID),
      channel_id: res.body.id,
      platform,
      status: "connected",
      display_name: "Social",
      phone_number: null,
      routing_mode: "EXTERNAL",
      number_mode: "dedicated",
      is_sandbox: false,
      routing_warning: expect.any(String),
      publish_readiness: null,
    });
    const wire = JSON.stringify(res.body);
    for (const value of Object.values(credentials)) expect(wire).not.toContain(value);
    const row = await channelRow(res.body.id);
    expect(row.providerSenderId).toBe(credentials[senderField]);
    expect(row.businessAccountId).toBeNull();
    expect(row.credentialsSealed).not.toContain(credentials.access_token);
    expect(JSON.parse(unseal(row.credentialsSealed!))).toEqual(credentials);
  });

  it.each([
    ["PLATFORM_B", bCredentials],
    ["PLATFORM_C", cCredentials],
  ] as const)("422 feature_unsupported_on_channel for %s on an organization without it; nothing stored", async (platform, credentialsOf) => {
    const before = await orgChannelCount(acme.orgId);
    const res = await app.call("POST", "/channels", { key: acme.key, body: { platform, credentials: credentialsOf() } });
    expectError(res, 422, "feature_unsupported_on_channel");
    expect(res.body.message).toContain(platform);
    expect(await orgChannelCount(acme.orgId)).toBe(before);
    expect((await projectRow(acme.projectId)).channelId).toBeNull();
  });

  it("activating only PLATFORM_B does not allow PLATFORM_C", async () => {
    const seeded = await fresh("Only B", false);
    await setPlatforms(seeded.orgId, true, false);
    expect((await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_B", credentials: bCredentials() } })).status).toBe(200);
    expectError(
      await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_C", credentials: cCredentials() } }),
      422,
      "feature_unsupported_on_channel",
    );
  });

  const a = () => aCredentials();
  it.each([
    ["a missing access_token", () => ({ platform: "PLATFORM_A", credentials: { ...a(), access_token: undefined } }), ["credentials.access_token"]],
    ["an empty access_token", () => ({ platform: "PLATFORM_A", credentials: { ...a(), access_token: "" } }), ["credentials.access_token"]],
    ["a numeric access_token", () => ({ platform: "PLATFORM_A", credentials: { ...a(), access_token: 42 } }), ["credentials.access_token"]],
    ["a missing phone_number_id", () => ({ platform: "PLATFORM_A", credentials: { ...a(), phone_number_id: undefined } }), ["credentials.phone_number_id"]],
    [
      "a missing business_account_id",
      () => ({ platform: "PLATFORM_A", credentials: { ...a(), business_account_id: undefined } }),
      ["credentials.business_account_id"],
    ],
    ["a phone_number_id with spaces", () => ({ platform: "PLATFORM_A", credentials: { ...a(), phone_number_id: "12 34" } }), ["credentials.phone_number_id"]],
    ["an unknown credential field", () => ({ platform: "PLATFORM_A", credentials: { ...a(), app_secret: "x" } }), ["credentials.app_secret"]],
    ["no credentials", () => ({ platform: "PLATFORM_A" }), ["credentials"]],
    ["credentials not an object", () => ({ platform: "PLATFORM_A", credentials: "token" }), ["credentials"]],
    [
      "PLATFORM_A credentials on PLATFORM_B",
      () => ({ platform: "PLATFORM_B", credentials: a() }),
      ["credentials.account_id", "credentials.phone_number_id", "credentials.business_account_id"],
    ],
    ["PLATFORM_B without account_id", () => ({ platform: "PLATFORM_B", credentials: { access_token: "t" } }), ["credentials.account_id"]],
    ["PLATFORM_C without access_token", () => ({ platform: "PLATFORM_C", credentials: { page_id: "p1" } }), ["credentials.access_token"]],
    ["no platform", () => ({ credentials: a() }), ["platform"]],
    ["an unknown platform", () => ({ platform: "PLATFORM_X", credentials: a() }), ["platform"]],
    ["platform SMS (not connectable)", () => ({ platform: "SMS", credentials: a() }), ["platform"]],
    ["a phone_number that is not E.164", () => ({ platform: "PLATFORM_A", phone_number: "0415 555 0100", credentials: a() }), ["phone_number"]],
    ["a phone_number on PLATFORM_B", () => ({ platform: "PLATFORM_B", phone_number: "+14155550100", credentials: bCredentials() }), ["phone_number"]],
    ["an invalid routing_mode", () => ({ platform: "PLATFORM_A", routing_mode: "AGENT", credentials: a() }), ["routing_mode"]],
    ["an unknown top-level field", () => ({ platform: "PLATFORM_A", credentials: a(), status: "connected" }), ["status"]],
    ["a display_name over 200 characters", () => ({ platform: "PLATFORM_A", display_name: "d".repeat(201), credentials: a() }), ["display_name"]],
  ])("400 invalid_request for %s, issues keyed by dotted path; nothing stored", async (_label, bodyOf, fields) => {
    const seeded = await fresh("Invalid");
    const res = await app.call("POST", "/channels", { key: seeded.key, body: bodyOf() });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues).sort()).toEqual([...fields].sort());
    for (const field of fields) expect(res.body.issues[field].length).toBeGreaterThan(0);
    expect(await orgChannelCount(seeded.orgId)).toBe(0);
  });

  it("400 invalid_json for a body that is not JSON, and for an empty body", async () => {
    expectError(
      await app.call("POST", "/channels", { key: acme.key, rawBody: "{not json", headers: { "content-type": "application/json" } }),
      400,
      "invalid_json",
    );
    expectError(await app.call("POST", "/channels", { key: acme.key }), 400, "invalid_json");
  });

  it("409 conflict when the same phone_number_id is connected twice, in the same or another organization", async () => {
    const seeded = await fresh("Twice");
    const { credentials } = await connectA(seeded.key);
    const again = await app.call("POST", "/channels", {
      key: seeded.key,
      body: { platform: "PLATFORM_A", credentials: { ...credentials, access_token: "another-token" } },
    });
    expectError(again, 409, "conflict");
    expect(again.body.issues).toEqual({ "credentials.phone_number_id": ["Already connected."] });
    const elsewhere = await app.call("POST", "/channels", { key: acme.key, body: { platform: "PLATFORM_A", credentials } });
    expectError(elsewhere, 409, "conflict");
    expect(await orgChannelCount(seeded.orgId)).toBe(1);
    expect(await orgChannelCount(acme.orgId)).toBe(0);
  });

  it("409 for the same account_id / page_id twice; the same id on another platform is another sender", async () => {
    const seeded = await fresh("Twice BC");
    const b = bCredentials();
    expect((await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_B", credentials: b } })).status).toBe(200);
    const dupB = await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_B", credentials: b } });
    expectError(dupB, 409, "conflict");
    expect(dupB.body.issues).toHaveProperty(["credentials.account_id"]);
    const c = { page_id: b.account_id, access_token: "t" };
    expect((await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_C", credentials: c } })).status).toBe(200);
    const dupC = await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_C", credentials: c } });
    expectError(dupC, 409, "conflict");
    expect(dupC.body.issues).toHaveProperty(["credentials.page_id"]);
  });

  it("concurrent connects of the same sender: one 200, one 409, never a 500", async () => {
    const seeded = await fresh("Race");
    const credentials = aCredentials();
    const results = await Promise.all([1, 2].map(() => app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_A", credentials } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await orgChannelCount(seeded.orgId)).toBe(1);
  });

  it("the first dedicated channel becomes the project's channel_id, enrollment_channel and publish_readiness", async () => {
    const seeded = await fresh("First");
    const before = await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key });
    expect(before.body).toMatchObject({ channel_id: null, publish_readiness: SANDBOX_READINESS });
    expect(before.body.enrollment_channel.id).toBe(SANDBOX_CHANNEL_ID);

    const { channel } = await connectA(seeded.key);
    const project = await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key });
    expect(project.body.channel_id).toBe(channel.id);
    expect(project.body.enrollment_channel).toEqual(channel);
    expect(project.body.publish_readiness).toEqual(channel.publish_readiness);
    expect(project.body.publish_readiness.mode).toBe("dedicated");

    // A second channel does not take its place as the project's number, but its inbound still
    // reaches the project that connected it, so it is judged exactly like the first.
    const second = (await connectA(seeded.key)).channel;
    expect((await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key })).body.channel_id).toBe(channel.id);
    const first = await app.call("GET", `/channels/${channel.id}`, { key: seeded.key });
    expect(second.routing_warning).toBe(first.body.routing_warning);
  });

  it("a disconnected own channel falls back to the sandbox for enrollment and readiness", async () => {
    const seeded = await fresh("Fallback");
    const { channel } = await connectA(seeded.key);
    await setChannel(channel.id, { status: "disconnected" });
    const project = await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key });
    expect(project.body.channel_id).toBe(channel.id);
    expect(project.body.enrollment_channel.id).toBe(SANDBOX_CHANNEL_ID);
    expect(project.body.publish_readiness).toEqual(SANDBOX_READINESS);
  });

  it.each([
    ["FLOWS", "FLOWS"],
    ["EXTERNAL", "EXTERNAL"],
    // AGENT is the project's alone: the channel follows the project (null) and so routes AGENT.
    ["AGENT", null],
  ] as const)("a channel connected under a %s project starts with routing_mode %s", async (projectMode, channelMode) => {
    const seeded = await fresh(`Inherit ${projectMode}`);
    await setProject(seeded.projectId, { routingMode: projectMode });
    const { channel } = await connectA(seeded.key);
    expect(channel.routing_mode).toBe(channelMode);
    expect((await channelRow(channel.id)).routingMode).toBe(channelMode);
  });

  it("inheritance happens at connect time only: changing the project later leaves the channel as it is", async () => {
    const seeded = await fresh("Inherit once");
    await setProject(seeded.projectId, { routingMode: "FLOWS" });
    const { channel } = await connectA(seeded.key);
    const patched = await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { routing_mode: "EXTERNAL" } });
    expect(patched.status).toBe(200);
    expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_mode).toBe("FLOWS");
  });

  it("an explicit routing_mode overrides the inherited one", async () => {
    const seeded = await fresh("Explicit");
    await setProject(seeded.projectId, { routingMode: "FLOWS" });
    const { channel } = await connectA(seeded.key, { routing_mode: "NONE" });
    expect(channel.routing_mode).toBe("NONE");
  });
});

describe("GET /channels/{id}", () => {
  it("returns the organization's channel", async () => {
    const res = await app.call("GET", `/channels/${globexChannelId}`, { key: globex.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(CHANNEL_FIELDS);
    expect(res.body).toMatchObject({ id: globexChannelId, channel_id: globexChannelId, platform: "PLATFORM_A", number_mode: "dedicated", is_sandbox: false });
  });

  it("404 for another organization's channel, indistinguishable from an unknown id", async () => {
    const other = await app.call("GET", `/channels/${globexChannelId}`, { key: acme.key });
    expectError(other, 404, "not_found");
    expectHandlerHeaders(other);
    const missing = await app.call("GET", "/channels/ch_00000000000000000000000000", { key: acme.key });
    expectError(missing, 404, "not_found");
    expect(Object.keys(other.body).sort()).toEqual(Object.keys(missing.body).sort());
    expect(other.body.message.replace(globexChannelId, "X")).toBe(missing.body.message.replace("ch_00000000000000000000000000", "X"));
  });

  it("the sandbox is visible to every organization", async () => {
    for (const key of [acme.key, globex.key]) {
      const res = await app.call("GET", `/channels/${SANDBOX_CHANNEL_ID}`, { key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(sandboxWire(expect.any(String)));
    }
  });

  it("400 for an id longer than 200 characters", async () => {
    const res = await app.call("GET", `/channels/${"c".repeat(201)}`, { key: acme.key });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toHaveProperty("id");
  });
});

describe("PATCH /channels/{id}", () => {
  let seeded: Seeded;
  let channelId: string;

  beforeAll(async () => {
    seeded = await fresh("Patcher");
    await setProject(seeded.projectId, { webhookUrl: WEBHOOK_URL });
    channelId = (await connectA(seeded.key)).channel.id;
  });

  it.each(["NONE", "FLOWS", "EXTERNAL", null] as const)("sets routing_mode %s, stored and returned", async (mode) => {
    app.clock.advance(1000);
    const res = await app.call("PATCH", `/channels/${channelId}`, { key: seeded.key, body: { routing_mode: mode } });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(CHANNEL_FIELDS);
    expect(res.body.routing_mode).toBe(mode);
    const row = await channelRow(channelId);
    expect(row.routingMode).toBe(mode);
    expect(row.updatedAt.toISOString()).toBe(app.clock.now().toISOString());
    expect((await app.call("GET", `/channels/${channelId}`, { key: seeded.key })).body).toEqual(res.body);
  });

  it.each([
    [{ routing_mode: "AGENT" }, ["routing_mode"]],
    [{ routing_mode: "external" }, ["routing_mode"]],
    [{}, ["routing_mode"]],
    [{ routing_mode: "NONE", display_name: "x" }, ["display_name"]],
    [{ routing_mode: "NONE", status: "disconnected" }, ["status"]],
    [{ routing_mode: "NONE", credentials: { access_token: "x" } }, ["credentials"]],
    [{ routing_mode: "NONE", is_sandbox: true }, ["is_sandbox"]],
  ])("400 invalid_request for %j; the channel is unchanged", async (body, fields) => {
    const before = await channelRow(channelId);
    const res = await app.call("PATCH", `/channels/${channelId}`, { key: seeded.key, body });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues).sort()).toEqual(fields);
    expect(await channelRow(channelId)).toEqual(before);
  });

  it("422 unprocessable for the sandbox, which stays unchanged", async () => {
    const before = await channelRow(SANDBOX_CHANNEL_ID);
    for (const mode of ["NONE", "FLOWS", "EXTERNAL"]) {
      const res = await app.call("PATCH", `/channels/${SANDBOX_CHANNEL_ID}`, { key: seeded.key, body: { routing_mode: mode } });
      expectError(res, 422, "unprocessable");
      expect(res.body.issues).toEqual({ routing_mode: [expect.stringContaining("sandbox")] });
      expect(res.body.message).toContain("PATCH /projects/{id}");
    }
    expect(await channelRow(SANDBOX_CHANNEL_ID)).toEqual(before);
  });

  it("404 for another organization's channel, which stays unchanged", async () => {
    const before = await channelRow(globexChannelId);
    expectError(await app.call("PATCH", `/channels/${globexChannelId}`, { key: acme.key, body: { routing_mode: "NONE" } }), 404, "not_found");
    expect(await channelRow(globexChannelId)).toEqual(before);
  });
});

describe("routing_warning", () => {
  /** A fresh project with the given settings and its own (linked) PLATFORM_A channel in `mode`. */
  async function setup(project: { routingMode: "EXTERNAL" | "FLOWS" | "AGENT"; webhookUrl: string | null }, mode: "NONE" | "FLOWS" | "EXTERNAL") {
    const seeded = await fresh("Warn");
    await setProject(seeded.projectId, project);
    const { channel } = await connectA(seeded.key);
    const res = await app.call("PATCH", `/channels/${channel.id}`, { key: seeded.key, body: { routing_mode: mode } });
    expect(res.status).toBe(200);
    return { seeded, channel: res.body };
  }

  /** An automation of the project (active unless told): FLOWS then has something to answer with. */
  const withAutomation = (projectId: string, active = true) =>
    insertAutomation(app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: [{ send_reply: { text: "hi" } }], active });

  it("the spec's example: a FLOWS channel under an EXTERNAL project with a webhook_url", async () => {
    const { seeded, channel } = await setup({ routingMode: "EXTERNAL", webhookUrl: WEBHOOK_URL }, "FLOWS");
    await withAutomation(seeded.projectId);
    const res = await app.call("GET", `/channels/${channel.id}`, { key: seeded.key });
    expect(res.body.routing_warning).toMatch(/FLOWS.*EXTERNAL.*not forwarded/);
  });

  it("FLOWS with no active automation: recorded, not forwarded, nothing answers (issue 32 item 6); an active automation clears it", async () => {
    const { seeded, channel } = await setup({ routingMode: "FLOWS", webhookUrl: null }, "FLOWS");
    expect(channel.routing_warning).toMatch(/FLOWS but the project has no active automation.*nothing answers them/);
    await withAutomation(seeded.projectId, false);
    expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_warning).toMatch(/no active automation/);
    await app.db.update(automations).set({ active: true }).where(eq(automations.projectId, seeded.projectId));
    expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_warning).toBeNull();
  });

  it("NONE: recorded only", async () => {
    const { channel } = await setup({ routingMode: "EXTERNAL", webhookUrl: WEBHOOK_URL }, "NONE");
    expect(channel.routing_warning).toMatch(/NONE.*recorded only/);
  });

  it("EXTERNAL without a project webhook_url: delivered nowhere", async () => {
    const { channel } = await setup({ routingMode: "EXTERNAL", webhookUrl: null }, "EXTERNAL");
    expect(channel.routing_warning).toMatch(/EXTERNAL.*no webhook_url/);
  });

  it("null for EXTERNAL with a webhook_url, and for FLOWS with an active automation", async () => {
    expect((await setup({ routingMode: "EXTERNAL", webhookUrl: WEBHOOK_URL }, "EXTERNAL")).channel.routing_warning).toBeNull();
    for (const webhookUrl of [WEBHOOK_URL, null]) {
      const { seeded, channel } = await setup({ routingMode: "FLOWS", webhookUrl }, "FLOWS");
      await withAutomation(seeded.projectId);
      expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_warning).toBeNull();
    }
  });

  it("follows the project: setting the webhook_url clears the EXTERNAL warning, removing it brings it back", async () => {
    const { seeded, channel } = await setup({ routingMode: "EXTERNAL", webhookUrl: null }, "EXTERNAL");
    expect(channel.routing_warning).not.toBeNull();
    await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: WEBHOOK_URL } });
    expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_warning).toBeNull();
    await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: null } });
    expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_warning).toMatch(/no webhook_url/);
  });

  it("an AGENT project does not override a channel's own routing: each mode warns (or not) as it would anywhere", async () => {
    expect((await setup({ routingMode: "AGENT", webhookUrl: WEBHOOK_URL }, "EXTERNAL")).channel.routing_warning).toBeNull();
    expect((await setup({ routingMode: "AGENT", webhookUrl: WEBHOOK_URL }, "NONE")).channel.routing_warning).toMatch(/NONE.*recorded only/);
    expect((await setup({ routingMode: "AGENT", webhookUrl: null }, "EXTERNAL")).channel.routing_warning).toMatch(/no webhook_url/);
  });

  it("a channel that follows an AGENT project warns until its agent is ACTIVE: the webhook gets its messages instead (or nobody)", async () => {
    const { seeded, channel } = await setup({ routingMode: "AGENT", webhookUrl: WEBHOOK_URL }, "EXTERNAL");
    const follow = await app.call("PATCH", `/channels/${channel.id}`, { key: seeded.key, body: { routing_mode: null } });
    expect(follow.body.routing_mode).toBeNull();
    expect(follow.body.routing_warning).toMatch(
      /routes AGENT \(the routing of the project, which it follows\) but this channel has no ACTIVE business agent.*forwarded to the webhook instead/,
    );
    await setProject(seeded.projectId, { webhookUrl: null });
    expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_warning).toMatch(
      /no webhook_url: they are recorded and delivered nowhere/,
    );
    await app.db.insert(businessAgents).values({
      id: newId("businessAgent"),
      projectId: seeded.projectId,
      channelId: channel.id,
      status: "ACTIVE",
      settings: {},
      skills: [],
      createdAt: app.clock.now(),
      updatedAt: app.clock.now(),
    });
    expect((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.routing_warning).toBeNull();
  });

  it("a channel that is no project's channel routes nowhere, whatever its mode", async () => {
    const seeded = await fresh("Unlinked");
    await setProject(seeded.projectId, { webhookUrl: WEBHOOK_URL });
    await connectA(seeded.key);
    const { channel } = await connectA(seeded.key);
    // Only channels from before channels carried their project can be unlinked: make it one.
    await app.db.update(channels).set({ projectId: null }).where(eq(channels.id, channel.id));
    for (const mode of ["EXTERNAL", "FLOWS", "NONE"]) {
      const res = await app.call("PATCH", `/channels/${channel.id}`, { key: seeded.key, body: { routing_mode: mode } });
      expect(res.body.routing_warning).toMatch(/not the channel of any project.*dropped/);
    }
  });

  it("a sibling project's channel is judged by the sibling's settings, the same in every view", async () => {
    const owner = await fresh("Owner");
    await setProject(owner.projectId, { webhookUrl: WEBHOOK_URL });
    const { channel } = await connectA(owner.key);
    expect(channel.routing_warning).toBeNull();
    const viewer = await siblingOf(owner, "Viewer");
    // The viewer has no webhook_url; the channel still forwards fine to its owner's webhook.
    const seen = await app.call("GET", `/channels/${channel.id}`, { key: viewer.key });
    expect(seen.body.routing_warning).toBeNull();
    await setProject(owner.projectId, { webhookUrl: null });
    const again = await app.call("GET", `/channels/${channel.id}`, { key: viewer.key });
    expect(again.body.routing_warning).toContain(`its project ${owner.projectId}`);
    const listed = (await app.call("GET", "/channels", { key: viewer.key })).body.data.find((c: any) => c.id === channel.id);
    expect(listed).toEqual(again.body);
  });

  it("the sandbox follows the key's project: EXTERNAL without webhook_url warns, FLOWS without an active automation and AGENT without an ACTIVE agent too", async () => {
    const seeded = await fresh("Sandbox warn");
    const sandbox = async () => (await app.call("GET", `/channels/${SANDBOX_CHANNEL_ID}`, { key: seeded.key })).body.routing_warning;
    expect(await sandbox()).toMatch(/no webhook_url/);
    await setProject(seeded.projectId, { webhookUrl: WEBHOOK_URL });
    expect(await sandbox()).toBeNull();
    await setProject(seeded.projectId, { webhookUrl: null, routingMode: "FLOWS" });
    expect(await sandbox()).toMatch(/^Your project routes FLOWS but it has no active automation: messages your sandbox testers send are recorded/);
    await withAutomation(seeded.projectId);
    expect(await sandbox()).toBeNull();
    await setProject(seeded.projectId, { routingMode: "AGENT" });
    expect(await sandbox()).toMatch(/^Your project routes AGENT but the shared sandbox has no ACTIVE business agent/);
    await app.db.insert(businessAgents).values({
      id: newId("businessAgent"),
      projectId: seeded.projectId,
      channelId: SANDBOX_CHANNEL_ID,
      status: "ACTIVE",
      settings: {},
      skills: [],
      createdAt: app.clock.now(),
      updatedAt: app.clock.now(),
    });
    expect(await sandbox()).toBeNull();
    // The list and the project's enrollment_channel agree with the single GET.
    await setProject(seeded.projectId, { routingMode: "EXTERNAL" });
    const listed = (await app.call("GET", "/channels", { key: seeded.key })).body.data[0];
    const enrollment = (await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key })).body.enrollment_channel;
    expect(listed).toEqual(sandboxWire(expect.stringMatching(/no webhook_url/)));
    expect(enrollment).toEqual(listed);
  });
});

describe("publish_readiness of a dedicated PLATFORM_A channel", () => {
  let seeded: Seeded;
  let channelId: string;
  let connected: { credentialsSealed: string | null; businessAccountId: string | null };

  const GOOD = {
    status: "connected",
    businessVerificationStatus: "verified",
    accountReviewStatus: "APPROVED",
    phoneNumberStatus: "CONNECTED",
    paymentStatus: "active",
  } as const;

  beforeAll(async () => {
    seeded = await fresh("Readiness");
    channelId = (await connectA(seeded.key)).channel.id;
    const { credentialsSealed, businessAccountId } = await channelRow(channelId);
    connected = { credentialsSealed, businessAccountId };
  });

  /** The channel as connected, with the good statuses, then `values` on top. */
  async function readinessWith(values: Partial<typeof channels.$inferInsert>) {
    await setChannel(channelId, { ...GOOD, ...connected, ...values });
    const res = await app.call("GET", `/channels/${channelId}`, { key: seeded.key });
    expect(res.status).toBe(200);
    return res.body.publish_readiness;
  }

  it("all good: no blockers, can publish Flows and submit templates, statuses echoed", async () => {
    expect(await readinessWith({})).toEqual({
      mode: "dedicated",
      can_publish_flows: true,
      can_submit_templates: true,
      business_verification_status: "verified",
      account_review_status: "APPROVED",
      phone_number_status: "CONNECTED",
      blockers: [],
    });
  });

  it("provider casing does not matter (VERIFIED, approved, connected, ACTIVE)", async () => {
    const readiness = await readinessWith({
      businessVerificationStatus: "VERIFIED",
      accountReviewStatus: "approved",
      phoneNumberStatus: "connected",
      paymentStatus: "ACTIVE",
    });
    expect(readiness.blockers).toEqual([]);
    expect(readiness.business_verification_status).toBe("VERIFIED");
  });

  it.each([
    {
      label: "unknown account statuses",
      values: { businessVerificationStatus: null, accountReviewStatus: null, phoneNumberStatus: null },
      blockers: ["META_ACCOUNT_STATUS_UNKNOWN"],
      flows: true,
    },
    { label: "an unknown phone number status", values: { phoneNumberStatus: null }, blockers: ["META_ACCOUNT_STATUS_UNKNOWN"], flows: true },
    {
      label: "an unknown review status with a known unverified business",
      values: { businessVerificationStatus: "unverified", accountReviewStatus: null },
      blockers: ["META_ACCOUNT_STATUS_UNKNOWN", "BUSINESS_NOT_VERIFIED"],
      flows: true,
    },
    { label: "an unknown payment status", values: { paymentStatus: null }, blockers: ["PAYMENT_STATUS_UNKNOWN"], flows: true },
    { label: "no payment method", values: { paymentStatus: "none" }, blockers: ["NO_PAYMENT_METHOD"], flows: true },
    { label: "no payment method (upper case)", values: { paymentStatus: "NONE" }, blockers: ["NO_PAYMENT_METHOD"], flows: true },
    { label: "an unverified business", values: { businessVerificationStatus: "pending" }, blockers: ["BUSINESS_NOT_VERIFIED"], flows: true },
    { label: "an account under review", values: { accountReviewStatus: "PENDING" }, blockers: ["ACCOUNT_NOT_APPROVED"], flows: true },
    { label: "a rejected account", values: { accountReviewStatus: "REJECTED" }, blockers: ["ACCOUNT_NOT_APPROVED"], flows: true },
    { label: "a phone number not connected", values: { phoneNumberStatus: "OFFLINE" }, blockers: ["PHONE_NOT_CONNECTED"], flows: false },
    { label: "a disconnected channel", values: { status: "disconnected" }, blockers: ["CHANNEL_NOT_CONNECTED"], flows: false },
    { label: "a channel in error", values: { status: "error" }, blockers: ["CHANNEL_NOT_CONNECTED"], flows: false },
    { label: "a channel whose sender is still being registered", values: { status: "pending" }, blockers: ["WHATSAPP_SENDER_NOT_READY"], flows: false },
    { label: "no business account", values: { businessAccountId: null }, blockers: ["MISSING_WABA"], flows: false },
    { label: "no stored credentials", values: { credentialsSealed: null }, blockers: ["MISSING_CHANNEL_CREDENTIALS"], flows: false },
    {
      label: "everything wrong at once",
      values: {
        status: "disconnected",
        businessAccountId: null,
        credentialsSealed: null,
        businessVerificationStatus: "rejected",
        accountReviewStatus: "REJECTED",
        phoneNumberStatus: "FLAGGED",
        paymentStatus: "none",
      },
      blockers: [
        "CHANNEL_NOT_CONNECTED",
        "MISSING_WABA",
        "MISSING_CHANNEL_CREDENTIALS",
        "BUSINESS_NOT_VERIFIED",
        "ACCOUNT_NOT_APPROVED",
        "PHONE_NOT_CONNECTED",
        "NO_PAYMENT_METHOD",
      ],
      flows: false,
    },
  ] as const)("$label → $blockers; can_publish_flows $flows; templates blocked", async ({ values, blockers, flows }) => {
    const readiness = await readinessWith(values);
    expect(readiness.blockers).toEqual(blockers);
    expect(readiness.can_publish_flows).toBe(flows);
    expect(readiness.can_submit_templates).toBe(false);
    expect(readiness.mode).toBe("dedicated");
  });

  it("the project's publish_readiness is its channel's", async () => {
    const readiness = await readinessWith({ paymentStatus: "none" });
    const project = await app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key });
    expect(project.body.channel_id).toBe(channelId);
    expect(project.body.publish_readiness).toEqual(readiness);
  });

  it("null for PLATFORM_B and PLATFORM_C channels, whatever their status fields", async () => {
    for (const [platform, credentials] of [
      ["PLATFORM_B", bCredentials()],
      ["PLATFORM_C", cCredentials()],
    ] as const) {
      const res = await app.call("POST", "/channels", { key: seeded.key, body: { platform, credentials } });
      await setChannel(res.body.id, { ...GOOD, businessAccountId: "waba" });
      expect((await app.call("GET", `/channels/${res.body.id}`, { key: seeded.key })).body.publish_readiness).toBeNull();
    }
  });
});

describe("scopes", () => {
  it("channels:read lists and reads; channels:write is needed to connect and update", async () => {
    const seeded = await fresh("Scoped");
    const channelId = (await connectA(seeded.key)).channel.id;
    const reader = await app.addKey(seeded, ["channels:read"]);
    const writer = await app.addKey(seeded, ["channels:write"]);
    const other = await app.addKey(seeded, ["contacts:read", "projects:read"]);

    expect((await app.call("GET", "/channels", { key: reader })).status).toBe(200);
    expect((await app.call("GET", `/channels/${channelId}`, { key: reader })).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", "/channels", { platform: "PLATFORM_A", credentials: aCredentials() }],
      ["PATCH", `/channels/${channelId}`, { routing_mode: "NONE" }],
    ] as const) {
      const res = await app.call(method, path, { key: reader, body });
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe("channels:write");
    }
    for (const path of ["/channels", `/channels/${channelId}`]) {
      const res = await app.call("GET", path, { key: other });
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe("channels:read");
    }
    expect((await app.call("PATCH", `/channels/${channelId}`, { key: writer, body: { routing_mode: "NONE" } })).status).toBe(200);
    expect((await app.call("POST", "/channels", { key: writer, body: { platform: "PLATFORM_A", credentials: aCredentials() } })).status).toBe(200);
  });

  it("401 without a key", async () => {
    expectError(await app.call("GET", "/channels"), 401, "missing_api_key");
    expectError(await app.call("POST", "/channels", { body: { platform: "PLATFORM_A", credentials: aCredentials() } }), 401, "missing_api_key");
  });
});

describe("field errors read plainly", () => {
  it("a missing credential is 'Required.' under its dotted path", async () => {
    const res = await app.call("POST", "/channels", {
      key: acme.key,
      body: { platform: "PLATFORM_A", display_name: "Shop", phone_number: "+15550001234", credentials: { phone_number_id: "123", business_account_id: "456" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues["credentials.access_token"]).toEqual(["Required."]);
  });
});
