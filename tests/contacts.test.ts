import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { contacts, organizations, optIns } from "@/lib/db/schema";
import { createProjectRow } from "@/lib/domain/projects";
import { createApiKey } from "@/lib/domain/keys";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { recordOptIn, upsertContact } from "@/lib/domain/contacts/identity";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { expectError, expectHandlerHeaders } from "./support/wire";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

let app: TestApp;
let acme: Seeded;
/** A second project of acme's organization. */
let sibling: Seeded;
/** Another organization. */
let globex: Seeded;

/** Every field of the Contact wire object. */
const CONTACT_FIELDS = [
  "object",
  "id",
  "contact_id",
  "phone",
  "user_id",
  "username",
  "name",
  "preferred_language",
  "project_id",
  "channel_id",
  "channel",
  "reference_id",
  "status",
  "opt_in",
  "created_at",
  "updated_at",
].sort();

const CONTACT_ID = /^ct_[0-9a-z]{26}$/;

let serial = 0;
/** A distinct E.164 number per call. */
function phone() {
  serial += 1;
  return `+1415${String(5_550_000 + serial).padStart(7, "0")}`;
}
function providerId(prefix: string) {
  serial += 1;
  return `${prefix}${Date.now().toString(36)}${serial}`;
}

const now = () => app.clock.now().toISOString();

async function post(key: string, body: Record<string, unknown>) {
  const res = await app.call("POST", "/contacts", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function channel(key: string, id: string) {
  return (await app.call("GET", `/channels/${id}`, { key })).body;
}

async function connect(key: string, platform: "PLATFORM_A" | "PLATFORM_B" | "PLATFORM_C") {
  const credentials =
    platform === "PLATFORM_A"
      ? { phone_number_id: providerId("pn"), business_account_id: providerId("waba"), access_token: "t" }
      : platform === "PLATFORM_B"
        ? { account_id: providerId("ig"), access_token: "t" }
        : { page_id: providerId("page"), access_token: "t" };
  const res = await app.call("POST", "/channels", { key, body: { platform, credentials } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function fresh(name: string) {
  const seeded = await app.seed({ orgName: `${name} org`, projectName: name });
  await app.db.update(organizations).set({ platformBEnabled: true, platformCEnabled: true }).where(eq(organizations.id, seeded.orgId));
  forgetAuthenticatedKeys();
  return seeded;
}

async function siblingOf(seeded: Seeded, name: string): Promise<Seeded> {
  const row = await createProjectRow(app.db, seeded.orgId, { name }, app.clock.now());
  const { key, value } = await createApiKey(app.db, { organizationId: seeded.orgId, projectId: row.id, kind: "secret", scopes: ["*"] });
  return { orgId: seeded.orgId, projectId: row.id, key: value, keyId: key.id };
}

async function optInRows(projectId: string, contactId: string) {
  return app.db
    .select()
    .from(optIns)
    .where(and(eq(optIns.projectId, projectId), eq(optIns.contactId, contactId)));
}

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  sibling = await siblingOf(acme, "Sibling");
  globex = await app.seed({ orgName: "Globex", projectName: "Globex main" });
});
afterAll(() => app?.close());

describe("POST /contacts", () => {
  it("enrolls a phone with every Contact field and an active API opt-in, on the sandbox when no own channel", async () => {
    const number = phone();
    const res = await app.call("POST", "/contacts", { key: acme.key, body: { phone: number } });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(CONTACT_FIELDS);
    expect(res.body).toEqual({
      object: "contact",
      id: expect.stringMatching(CONTACT_ID),
      contact_id: res.body.id,
      phone: number,
      user_id: null,
      username: null,
      name: null,
      preferred_language: null,
      project_id: acme.projectId,
      channel_id: SANDBOX_CHANNEL_ID,
      channel: await channel(acme.key, SANDBOX_CHANNEL_ID),
      reference_id: null,
      status: "active",
      opt_in: { status: "active", source: "api", opted_in_at: now(), revoked_at: null },
      created_at: now(),
      updated_at: now(),
    });
  });

  it("takes reference_id and preferred_language", async () => {
    const body = await post(acme.key, { phone: phone(), reference_id: "crm-42", preferred_language: "pt-BR" });
    expect(body).toMatchObject({ reference_id: "crm-42", preferred_language: "pt-BR" });
  });

  it("opt_in false enrolls without an opt-in record (opt_in null)", async () => {
    const body = await post(acme.key, { phone: phone(), opt_in: false });
    expect(body.opt_in).toBeNull();
    expect(await optInRows(acme.projectId, body.id)).toEqual([]);
  });

  it("the same phone again is the same contact: given fields change, the rest and the opt-in stay", async () => {
    const number = phone();
    const first = await post(acme.key, { phone: number, reference_id: "r1", preferred_language: "en" });
    app.clock.advance(60_000);
    const second = await post(acme.key, { phone: number, reference_id: "r2" });
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ reference_id: "r2", preferred_language: "en", created_at: first.created_at, updated_at: now() });
    // Re-enrolling does not restart the opt-in: it has been active since the first enrollment.
    expect(second.opt_in).toEqual(first.opt_in);
    const third = await post(acme.key, { phone: number, reference_id: null, preferred_language: null, opt_in: true });
    expect(third).toMatchObject({ id: first.id, reference_id: null, preferred_language: null, opt_in: first.opt_in });
    const list = (await app.call("GET", "/contacts?limit=100", { key: acme.key })).body.data.filter((c: any) => c.phone === number);
    expect(list).toHaveLength(1);
    expect(
      await app.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.projectId, acme.projectId), eq(contacts.phone, number))),
    ).toHaveLength(1);
  });

  it("re-enrolling keeps an opt-in that came from elsewhere (a sandbox join), with its source and time", async () => {
    const number = phone();
    const joinedAt = app.clock.now();
    const row = await upsertContact(app.db, {
      projectId: acme.projectId,
      organizationId: acme.orgId,
      channelId: SANDBOX_CHANNEL_ID,
      platform: "PLATFORM_A",
      phone: number,
      name: "Ana",
      now: joinedAt,
    });
    await recordOptIn(app.db, acme.projectId, row.id, "sandbox_join", joinedAt);
    app.clock.advance(60_000);
    const body = await post(acme.key, { phone: number });
    expect(body).toMatchObject({
      id: row.id,
      name: "Ana",
      opt_in: { status: "active", source: "sandbox_join", opted_in_at: joinedAt.toISOString(), revoked_at: null },
    });
  });

  it("a revoked opt-in stays revoked when re-enrolled without opt_in; opt_in true re-activates it; false revokes", async () => {
    const number = phone();
    const created = await post(acme.key, { phone: number });
    app.clock.advance(1000);
    const revoked = await post(acme.key, { phone: number, opt_in: false });
    expect(revoked.opt_in).toEqual({ status: "revoked", source: "api", opted_in_at: created.opt_in.opted_in_at, revoked_at: now() });
    app.clock.advance(1000);
    expect((await post(acme.key, { phone: number })).opt_in).toEqual(revoked.opt_in);
    const active = await post(acme.key, { phone: number, opt_in: true });
    expect(active.opt_in).toEqual({ status: "active", source: "api", opted_in_at: now(), revoked_at: null });
    expect(await optInRows(acme.projectId, created.id)).toHaveLength(1);
  });

  it("the same phone in another project of the organization is the same contact id, with its own record", async () => {
    const number = phone();
    const mine = await post(acme.key, { phone: number, reference_id: "acme-ref" });
    const theirs = await post(sibling.key, { phone: number, opt_in: false });
    expect(theirs.id).toBe(mine.id);
    expect(theirs).toMatchObject({ project_id: sibling.projectId, reference_id: null, opt_in: null });
    // Each project keeps its own attributes and opt-in.
    expect((await app.call("GET", `/contacts/${mine.id}`, { key: acme.key })).body).toMatchObject({
      project_id: acme.projectId,
      reference_id: "acme-ref",
      opt_in: { status: "active" },
    });
  });

  it("the same phone in another organization is a different contact id", async () => {
    const number = phone();
    const mine = await post(acme.key, { phone: number });
    const theirs = await post(globex.key, { phone: number });
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.id).toMatch(CONTACT_ID);
  });

  it("a project with its own connected number enrolls on it; channel_id picks another visible channel", async () => {
    const seeded = await fresh("Own number");
    const own = await connect(seeded.key, "PLATFORM_A");
    const onOwn = await post(seeded.key, { phone: phone() });
    expect(onOwn).toMatchObject({ channel_id: own.id, channel: own });
    const onSandbox = await post(seeded.key, { phone: phone(), channel_id: SANDBOX_CHANNEL_ID });
    expect(onSandbox.channel_id).toBe(SANDBOX_CHANNEL_ID);
  });

  it("re-enrolling without channel_id leaves the contact on its channel; with channel_id moves it", async () => {
    const seeded = await fresh("Stays");
    const number = phone();
    const first = await post(seeded.key, { phone: number });
    expect(first.channel_id).toBe(SANDBOX_CHANNEL_ID);
    const own = await connect(seeded.key, "PLATFORM_A");
    expect((await post(seeded.key, { phone: number, reference_id: "x" })).channel_id).toBe(SANDBOX_CHANNEL_ID);
    expect((await post(seeded.key, { phone: number, channel_id: own.id })).channel_id).toBe(own.id);
  });

  it("{user_id, channel_id} of a PLATFORM_B channel: phone null, same id again, a different id on PLATFORM_C", async () => {
    const seeded = await fresh("Social");
    const b = await connect(seeded.key, "PLATFORM_B");
    const c = await connect(seeded.key, "PLATFORM_C");
    const first = await post(seeded.key, { user_id: "17841400000000001", channel_id: b.id });
    expect(first).toMatchObject({
      object: "contact",
      phone: null,
      user_id: "17841400000000001",
      channel_id: b.id,
      channel: { id: b.id, platform: "PLATFORM_B", publish_readiness: null },
      opt_in: { status: "active", source: "api", revoked_at: null },
    });
    expect(first.id).toMatch(CONTACT_ID);
    expect((await post(seeded.key, { user_id: "17841400000000001", channel_id: b.id })).id).toBe(first.id);
    // User ids are platform-scoped: the same digits on another platform are another person.
    expect((await post(seeded.key, { user_id: "17841400000000001", channel_id: c.id })).id).not.toBe(first.id);
  });

  it("400 for user_id on the shared sandbox (it identifies testers by phone)", async () => {
    const res = await app.call("POST", "/contacts", { key: acme.key, body: { user_id: "u-1" } });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toHaveProperty("phone");
  });

  it("400 for a phone on a PLATFORM_B or PLATFORM_C channel (they identify contacts by user id)", async () => {
    const seeded = await fresh("Phone on B");
    for (const platform of ["PLATFORM_B", "PLATFORM_C"] as const) {
      const ch = await connect(seeded.key, platform);
      const res = await app.call("POST", "/contacts", { key: seeded.key, body: { phone: phone(), channel_id: ch.id } });
      expectError(res, 400, "invalid_request");
      expect(Object.keys(res.body.issues)).toEqual(["phone"]);
    }
    expect(await app.db.select().from(contacts).where(eq(contacts.projectId, seeded.projectId))).toEqual([]);
  });

  it("404 for a channel_id of another organization or an unknown one", async () => {
    const ch = await connect((await fresh("Elsewhere")).key, "PLATFORM_A");
    expectError(await app.call("POST", "/contacts", { key: acme.key, body: { phone: phone(), channel_id: ch.id } }), 404, "not_found");
    expectError(
      await app.call("POST", "/contacts", { key: acme.key, body: { phone: phone(), channel_id: "ch_00000000000000000000000000" } }),
      404,
      "not_found",
    );
  });

  it.each([
    [{ phone: "14155550123" }, ["phone"]],
    [{ phone: "+1 415 555 0123" }, ["phone"]],
    [{ phone: "+04155550123" }, ["phone"]],
    [{ phone: "+1415" }, ["phone"]],
    [{ phone: "+1234567890123456" }, ["phone"]],
    [{ phone: 14155550123 }, ["phone"]],
    [{ phone: "+14155550123", user_id: "u-1" }, ["phone"]],
    [{}, ["phone"]],
    [{ user_id: "" }, ["phone", "user_id"]],
    [{ phone: "+14155550123", preferred_language: "english!" }, ["preferred_language"]],
    [{ phone: "+14155550123", preferred_language: "e" }, ["preferred_language"]],
    [{ phone: "+14155550123", reference_id: "r".repeat(201) }, ["reference_id"]],
    [{ phone: "+14155550123", opt_in: "yes" }, ["opt_in"]],
    [{ phone: "+14155550123", name: "Ana" }, ["name"]],
    [{ phone: "+14155550123", status: "active" }, ["status"]],
  ])("400 invalid_request for %j, keyed by %j; nothing stored", async (body, fields) => {
    const before = (await app.db.select().from(contacts).where(eq(contacts.projectId, acme.projectId))).length;
    const res = await app.call("POST", "/contacts", { key: acme.key, body });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues).sort()).toEqual(fields);
    expect((await app.db.select().from(contacts).where(eq(contacts.projectId, acme.projectId))).length).toBe(before);
  });
});

describe("GET /contacts/{id}", () => {
  it("returns the contact exactly as the enrollment did", async () => {
    const created = await post(acme.key, { phone: phone(), reference_id: "get-me" });
    const res = await app.call("GET", `/contacts/${created.id}`, { key: acme.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(res.body).toEqual(created);
  });

  it("404 for another project's contact, another organization's, and an unknown id", async () => {
    const siblings = await post(sibling.key, { phone: phone() });
    const globexOne = await post(globex.key, { phone: phone() });
    for (const id of [siblings.id, globexOne.id, "ct_00000000000000000000000000"]) {
      const res = await app.call("GET", `/contacts/${id}`, { key: acme.key });
      expectError(res, 404, "not_found");
      expectHandlerHeaders(res);
    }
  });
});

describe("GET /contacts", () => {
  let seeded: Seeded;
  let ids: string[];

  beforeAll(async () => {
    seeded = await fresh("Contact list");
    ids = [];
    for (let i = 0; i < 5; i++) {
      app.clock.advance(1000);
      ids.push((await post(seeded.key, { phone: phone() })).id);
    }
    ids.reverse();
  });

  it("lists the project's contacts newest first, every item a full Contact", async () => {
    const res = await app.call("GET", "/contacts", { key: seeded.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "object"]);
    expect(res.body.object).toBe("list");
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((c: any) => c.id)).toEqual(ids);
    for (const item of res.body.data) expect(Object.keys(item).sort()).toEqual(CONTACT_FIELDS);
    expect(res.body.data[0]).toEqual((await app.call("GET", `/contacts/${ids[0]}`, { key: seeded.key })).body);
  });

  it("pages with limit and starting_after until has_more is false", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await app.call("GET", `/contacts?limit=2${cursor ? `&starting_after=${cursor}` : ""}`, { key: seeded.key });
      expect(res.status).toBe(200);
      pages += 1;
      seen.push(...res.body.data.map((c: any) => c.id));
      if (!res.body.has_more) break;
      cursor = res.body.data.at(-1).id;
    }
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);
  });

  it("never lists another project's contacts", async () => {
    const theirs = await post(sibling.key, { phone: phone() });
    const mine = (await app.call("GET", "/contacts?limit=100", { key: acme.key })).body.data.map((c: any) => c.id);
    expect(mine).not.toContain(theirs.id);
    expect((await app.call("GET", "/contacts", { key: seeded.key })).body.data.map((c: any) => c.id)).toEqual(ids);
  });

  it("400 for an unknown cursor, and for another project's contact as cursor", async () => {
    const theirs = await post(sibling.key, { phone: phone() });
    for (const cursor of ["ct_00000000000000000000000000", theirs.id]) {
      const res = await app.call("GET", `/contacts?starting_after=${cursor}`, { key: seeded.key });
      expectError(res, 400, "invalid_request");
      expect(res.body.issues).toHaveProperty("starting_after");
    }
  });

  it("400 for limit above 100", async () => {
    expectError(await app.call("GET", "/contacts?limit=101", { key: seeded.key }), 400, "invalid_request");
  });
});

describe("PATCH /contacts/{id}", () => {
  it("sets and clears reference_id and preferred_language", async () => {
    const created = await post(acme.key, { phone: phone() });
    app.clock.advance(1000);
    const set = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body: { reference_id: "crm-7", preferred_language: "es-419" } });
    expect(set.status).toBe(200);
    expectHandlerHeaders(set);
    expect(set.body).toEqual({ ...created, reference_id: "crm-7", preferred_language: "es-419", updated_at: now() });
    const cleared = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body: { reference_id: null, preferred_language: null } });
    expect(cleared.body).toMatchObject({ reference_id: null, preferred_language: null });
    // Only the given fields change.
    const partial = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body: { preferred_language: "fr" } });
    expect(partial.body).toMatchObject({ reference_id: null, preferred_language: "fr" });
    expect((await app.call("GET", `/contacts/${created.id}`, { key: acme.key })).body).toEqual(partial.body);
  });

  it("opt_in false revokes (revoked_at set); true makes it active again; true while active changes nothing", async () => {
    const created = await post(acme.key, { phone: phone() });
    app.clock.advance(1000);
    const revoked = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body: { opt_in: false } });
    expect(revoked.body.opt_in).toEqual({ status: "revoked", source: "api", opted_in_at: created.opt_in.opted_in_at, revoked_at: now() });
    app.clock.advance(1000);
    const active = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body: { opt_in: true } });
    expect(active.body.opt_in).toEqual({ status: "active", source: "api", opted_in_at: now(), revoked_at: null });
    app.clock.advance(1000);
    const again = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body: { opt_in: true } });
    expect(again.body.opt_in).toEqual(active.body.opt_in);
  });

  it("opt_in true on a contact enrolled without one creates it; false on one without a record stays null", async () => {
    const none = await post(acme.key, { phone: phone(), opt_in: false });
    expect((await app.call("PATCH", `/contacts/${none.id}`, { key: acme.key, body: { opt_in: false } })).body.opt_in).toBeNull();
    expect((await app.call("PATCH", `/contacts/${none.id}`, { key: acme.key, body: { opt_in: true } })).body.opt_in).toEqual({
      status: "active",
      source: "api",
      opted_in_at: now(),
      revoked_at: null,
    });
  });

  it("a revoke in one project leaves the sibling project's opt-in alone", async () => {
    const number = phone();
    const mine = await post(acme.key, { phone: number });
    await post(sibling.key, { phone: number });
    await app.call("PATCH", `/contacts/${mine.id}`, { key: acme.key, body: { opt_in: false } });
    expect((await app.call("GET", `/contacts/${mine.id}`, { key: sibling.key })).body.opt_in.status).toBe("active");
  });

  it("an empty body is a no-op that returns the contact", async () => {
    const created = await post(acme.key, { phone: phone(), reference_id: "keep" });
    const res = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, reference_id: "keep", opt_in: created.opt_in });
  });

  it.each([
    [{ phone: "+14155550199" }, "phone"],
    [{ id: "ct_x" }, "id"],
    [{ contact_id: "ct_x" }, "contact_id"],
    [{ status: "erased" }, "status"],
    [{ channel_id: SANDBOX_CHANNEL_ID }, "channel_id"],
    [{ user_id: "u" }, "user_id"],
    [{ name: "Ana" }, "name"],
    [{ project_id: "proj_x" }, "project_id"],
    [{ created_at: "2026-01-01T00:00:00Z" }, "created_at"],
    [{ preferred_language: "not a tag" }, "preferred_language"],
    [{ preferred_language: "en_US" }, "preferred_language"],
    [{ reference_id: 7 }, "reference_id"],
    [{ reference_id: "r".repeat(201) }, "reference_id"],
    [{ opt_in: "false" }, "opt_in"],
    [{ opt_in: null }, "opt_in"],
  ])("400 invalid_request for %j keyed by %s; nothing changes", async (body, field) => {
    const created = await post(acme.key, { phone: phone(), reference_id: "before" });
    const res = await app.call("PATCH", `/contacts/${created.id}`, { key: acme.key, body });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual([field]);
    expect((await app.call("GET", `/contacts/${created.id}`, { key: acme.key })).body).toEqual(created);
  });

  it("404 for another project's contact (even with the same contact id in the organization), which stays unchanged", async () => {
    const theirs = await post(sibling.key, { phone: phone(), reference_id: "theirs" });
    expectError(await app.call("PATCH", `/contacts/${theirs.id}`, { key: acme.key, body: { reference_id: "mine" } }), 404, "not_found");
    expect((await app.call("GET", `/contacts/${theirs.id}`, { key: sibling.key })).body.reference_id).toBe("theirs");
    const globexOne = await post(globex.key, { phone: phone() });
    expectError(await app.call("PATCH", `/contacts/${globexOne.id}`, { key: acme.key, body: { opt_in: false } }), 404, "not_found");
    expect((await app.call("GET", `/contacts/${globexOne.id}`, { key: globex.key })).body.opt_in.status).toBe("active");
  });
});

describe("scopes", () => {
  it("contacts:read reads, contacts:write enrolls and updates; neither does the other's job", async () => {
    const created = await post(acme.key, { phone: phone() });
    const reader = await app.addKey(acme, ["contacts:read"]);
    const writer = await app.addKey(acme, ["contacts:write"]);

    expect((await app.call("GET", "/contacts", { key: reader })).status).toBe(200);
    expect((await app.call("GET", `/contacts/${created.id}`, { key: reader })).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", "/contacts", { phone: phone() }],
      ["PATCH", `/contacts/${created.id}`, { reference_id: "x" }],
    ] as const) {
      const res = await app.call(method, path, { key: reader, body });
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe("contacts:write");
    }

    expect((await app.call("POST", "/contacts", { key: writer, body: { phone: phone() } })).status).toBe(200);
    expect((await app.call("PATCH", `/contacts/${created.id}`, { key: writer, body: { reference_id: "w" } })).status).toBe(200);
    for (const path of ["/contacts", `/contacts/${created.id}`]) {
      const res = await app.call("GET", path, { key: writer });
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe("contacts:read");
    }
  });

  it("401 without a key", async () => {
    expectError(await app.call("GET", "/contacts"), 401, "missing_api_key");
    expectError(await app.call("POST", "/contacts", { body: { phone: phone() } }), 401, "missing_api_key");
  });
});
