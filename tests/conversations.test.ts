import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { contacts, conversations, messages, projects } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { createProjectRow } from "@/lib/domain/projects";
import { createApiKey } from "@/lib/domain/keys";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { upsertContact } from "@/lib/domain/contacts/identity";
import { ensureConversation, touchConversations } from "@/lib/domain/conversations";
import type { Seeded, TestApp } from "./support/app";
import { expectError, expectHandlerHeaders } from "./support/wire";
import { startHarness, type Harness } from "./messages/support";
import { testerNumber } from "./messages/send-support";

let h: Harness;
let app: TestApp;
let acme: Seeded;
/** A second project of acme's organization. */
let sibling: Seeded;
/** Another organization. */
let globex: Seeded;

const CONVERSATION_FIELDS = [
  "object",
  "id",
  "conversation_id",
  "contact_id",
  "phone",
  "name",
  "reference_id",
  "last_channel_id",
  "is_active",
  "handoff",
  "started_at",
  "last_message_at",
  "messaging_window",
  "thread_owner",
  // The team inbox's (tests/inbox/).
  "assignee",
  "assigned_at",
  "assigned_by",
  "unread_count",
  "ai_can_answer",
  "created_at",
  "updated_at",
].sort();

const MESSAGE_FIELDS = [
  "object",
  "id",
  "message_id",
  "conversation_id",
  "contact_id",
  "channel_id",
  "direction",
  "type",
  "status",
  "content",
  "platform_message_id",
  "reply_to",
  "failure",
  "media",
  // The structured content (lib/api/schemas/messages-read.ts): always present, null unless it is the message's.
  "interactive",
  "location",
  "contacts",
  "template",
  "reaction",
  "sticker",
  "timestamp",
].sort();

const CONVERSATION_ID = /^conv_[0-9a-z]{26}$/;
const AI_ACTIVE = { status: "AI_ACTIVE", reason: null, handoff_at: null };

let serial = 0;
function phone() {
  serial += 1;
  return `+1415${String(7_770_000 + serial).padStart(7, "0")}`;
}

/** A contact and its conversation in a project, made the way inbound makes them. */
async function conversationWith(seeded: Seeded, input: { phone?: string; name?: string | null; channelId?: string } = {}) {
  const at = app.clock.now();
  const channelId = input.channelId ?? SANDBOX_CHANNEL_ID;
  const contact = await upsertContact(app.db, {
    projectId: seeded.projectId,
    organizationId: seeded.orgId,
    channelId,
    platform: "PLATFORM_A",
    phone: input.phone ?? phone(),
    name: input.name === undefined ? "Ana" : input.name,
    now: at,
  });
  const conversation = await ensureConversation(app.db, seeded.projectId, contact.id, channelId, at);
  return { contact, conversation };
}

type MessageInsert = typeof messages.$inferInsert;

/** A message row as ingest or POST /messages store it; `at` defaults to the clock. */
async function insertMessage(seeded: Seeded, conversation: { id: string; contactId: string }, values: Partial<MessageInsert> = {}) {
  const at = values.timestamp ?? app.clock.now();
  const [row] = await app.db
    .insert(messages)
    .values({
      id: newId("message", at.getTime()),
      projectId: seeded.projectId,
      conversationId: conversation.id,
      contactId: conversation.contactId,
      channelId: SANDBOX_CHANNEL_ID,
      direction: "inbound",
      type: "text",
      status: "delivered",
      content: "Hello",
      body: {},
      platformMessageId: `wamid.${newId("message")}`,
      providerTimestamp: at,
      timestamp: at,
      createdAt: at,
      updatedAt: at,
      ...values,
    })
    .returning();
  await touchConversations(app.db, [conversation.id], at);
  return row!;
}

async function conversationRow(id: string) {
  const [row] = await app.db.select().from(conversations).where(eq(conversations.id, id));
  return row!;
}

beforeAll(async () => {
  h = await startHarness();
  app = h.app;
  acme = await app.seed();
  const row = await createProjectRow(app.db, acme.orgId, { name: "Sibling" }, app.clock.now());
  const { key, value } = await createApiKey(app.db, { organizationId: acme.orgId, projectId: row.id, kind: "secret", scopes: ["*"] });
  sibling = { orgId: acme.orgId, projectId: row.id, key: value, keyId: key.id };
  globex = await app.seed({ orgName: "Globex", projectName: "Globex main" });
});
afterAll(() => h?.close());

describe("GET /conversations/{id}", () => {
  it("returns every Conversation field, contact fields from the project's contact", async () => {
    const number = phone();
    const { contact, conversation } = await conversationWith(acme, { phone: number, name: "Bea" });
    await app.call("PATCH", `/contacts/${contact.id}`, { key: acme.key, body: { reference_id: "crm-1" } });
    const res = await app.call("GET", `/conversations/${conversation.id}`, { key: acme.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(CONVERSATION_FIELDS);
    const at = app.clock.now().toISOString();
    expect(res.body).toEqual({
      object: "conversation",
      id: conversation.id,
      conversation_id: conversation.id,
      contact_id: contact.id,
      phone: number,
      name: "Bea",
      reference_id: "crm-1",
      last_channel_id: SANDBOX_CHANNEL_ID,
      is_active: true,
      handoff: AI_ACTIVE,
      started_at: at,
      last_message_at: null,
      messaging_window: { open: false, closes_at: null },
      // The project routes EXTERNAL: no thread owner on the wire (tests/agents/inbox-sync.test.ts).
      thread_owner: null,
      assignee: null,
      assigned_at: null,
      assigned_by: null,
      // An API key has no read state.
      unread_count: null,
      // EXTERNAL routing: your webhook answers, nothing automated of ours.
      ai_can_answer: false,
      created_at: at,
      updated_at: at,
    });
    expect(res.body.id).toMatch(CONVERSATION_ID);
  });

  it("last_message_at follows the latest message, never going back", async () => {
    const { conversation } = await conversationWith(acme);
    const start = app.clock.now();
    app.clock.advance(5000);
    const later = app.clock.now();
    await insertMessage(acme, conversation, { timestamp: later });
    await insertMessage(acme, conversation, { timestamp: start });
    const res = await app.call("GET", `/conversations/${conversation.id}`, { key: acme.key });
    expect(res.body.last_message_at).toBe(later.toISOString());
  });

  it("phone null and name null for a contact known only by user id, without a name", async () => {
    const contact = await upsertContact(app.db, {
      projectId: acme.projectId,
      organizationId: acme.orgId,
      channelId: SANDBOX_CHANNEL_ID,
      platform: "PLATFORM_B",
      userId: `ig-${serial++}`,
      now: app.clock.now(),
    });
    const conversation = await ensureConversation(app.db, acme.projectId, contact.id, SANDBOX_CHANNEL_ID, app.clock.now());
    const res = await app.call("GET", `/conversations/${conversation.id}`, { key: acme.key });
    expect(res.body).toMatchObject({ contact_id: contact.id, phone: null, name: null, reference_id: null });
  });

  it("a conversation whose contact row is gone still reads (null contact fields), in the list too", async () => {
    const { contact, conversation } = await conversationWith(acme, { name: "Gone" });
    await app.db.delete(contacts).where(and(eq(contacts.projectId, acme.projectId), eq(contacts.id, contact.id)));
    const res = await app.call("GET", `/conversations/${conversation.id}`, { key: acme.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contact_id: contact.id, phone: null, name: null, reference_id: null });
    const list = await app.call("GET", "/conversations?limit=100", { key: acme.key });
    expect(list.status).toBe(200);
    expect(list.body.data.find((c: any) => c.id === conversation.id)).toEqual(res.body);
  });

  it("404 for another project's conversation, another organization's, and an unknown id", async () => {
    const theirs = (await conversationWith(sibling)).conversation;
    const globexOne = (await conversationWith(globex)).conversation;
    for (const id of [theirs.id, globexOne.id, "conv_00000000000000000000000000"]) {
      const res = await app.call("GET", `/conversations/${id}`, { key: acme.key });
      expectError(res, 404, "not_found");
      expectHandlerHeaders(res);
    }
  });

  it("the same person in two projects of the organization: one contact id, two conversations", async () => {
    const number = phone();
    const mine = await conversationWith(acme, { phone: number });
    const theirs = await conversationWith(sibling, { phone: number });
    expect(theirs.contact.id).toBe(mine.contact.id);
    expect(theirs.conversation.id).not.toBe(mine.conversation.id);
    expectError(await app.call("GET", `/conversations/${theirs.conversation.id}`, { key: acme.key }), 404, "not_found");
    expect((await app.call("GET", `/conversations/${theirs.conversation.id}`, { key: sibling.key })).body.contact_id).toBe(mine.contact.id);
  });
});

describe("GET /conversations", () => {
  let seeded: Seeded;
  let ids: string[];

  beforeAll(async () => {
    seeded = await app.seed({ orgName: "Lister org", projectName: "Lister" });
    ids = [];
    for (let i = 0; i < 5; i++) {
      app.clock.advance(1000);
      ids.push((await conversationWith(seeded)).conversation.id);
    }
    ids.reverse();
  });

  it("lists the project's conversations newest first, items equal to the single GET", async () => {
    const res = await app.call("GET", "/conversations", { key: seeded.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "object"]);
    expect(res.body).toMatchObject({ object: "list", has_more: false });
    expect(res.body.data.map((c: any) => c.id)).toEqual(ids);
    for (const item of res.body.data) expect(Object.keys(item).sort()).toEqual(CONVERSATION_FIELDS);
    expect(res.body.data[2]).toEqual((await app.call("GET", `/conversations/${ids[2]}`, { key: seeded.key })).body);
  });

  it("pages with limit and starting_after until has_more is false", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await app.call("GET", `/conversations?limit=2${cursor ? `&starting_after=${cursor}` : ""}`, { key: seeded.key });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: any) => c.id));
      if (!res.body.has_more) break;
      cursor = res.body.data.at(-1).id;
    }
    expect(seen).toEqual(ids);
  });

  it("an empty project lists nothing; other projects' conversations never appear", async () => {
    const empty = await app.seed({ orgName: "Empty org", projectName: "Empty" });
    expect((await app.call("GET", "/conversations", { key: empty.key })).body).toEqual({ object: "list", data: [], has_more: false });
    const mine = (await app.call("GET", "/conversations?limit=100", { key: acme.key })).body.data.map((c: any) => c.id);
    for (const id of ids) expect(mine).not.toContain(id);
  });

  it("400 for an unknown cursor and for another project's conversation as cursor", async () => {
    const theirs = (await conversationWith(sibling)).conversation.id;
    for (const cursor of ["conv_00000000000000000000000000", theirs]) {
      const res = await app.call("GET", `/conversations?starting_after=${cursor}`, { key: seeded.key });
      expectError(res, 400, "invalid_request");
      expect(res.body.issues).toHaveProperty("starting_after");
    }
  });
});

describe("GET /conversations filters", () => {
  let filters: Seeded;
  /** Another project of the same organization (org-stable contact ids: the same person has the same id there). */
  let sameOrg: Seeded;
  let other: Seeded;
  let supportChannel: string;
  let otherChannel: string;
  /** Conversation ids by label. */
  const conv: Record<string, string> = {};
  const contactOf: Record<string, string> = {};
  /** Every label, newest first (the list's order). */
  let newestFirst: string[];

  async function channelOf(seeded: Seeded, run: string) {
    const res = await app.call("POST", "/channels", {
      key: seeded.key,
      body: {
        platform: "PLATFORM_A",
        display_name: "Support",
        credentials: { phone_number_id: `pn-${run}`, business_account_id: `waba-${run}`, access_token: "tok" },
      },
    });
    expect(res.status).toBe(200);
    return res.body.id as string;
  }

  const PEOPLE: { label: string; name: string | null; phone: string; support?: "message" | "last_channel"; handoff?: boolean }[] = [
    { label: "ana", name: "Ana Lima", phone: "+14155550101" },
    { label: "bruno", name: "Bruno", phone: "+14155550102", support: "message", handoff: true },
    { label: "souza", name: "ANA Souza", phone: "+5511999990103", support: "message" },
    { label: "percent", name: "100% Real", phone: "+14155550104", handoff: true },
    { label: "underscore", name: "a_b", phone: "+14155550105" },
    { label: "axb", name: "axb", phone: "+14155550106", support: "last_channel" },
    { label: "backslash", name: "back\\slash", phone: "+14155550107" },
    { label: "nameless", name: null, phone: "+4930123456" },
  ];

  beforeAll(async () => {
    filters = await app.seed({ orgName: "Filter org", projectName: "Filters" });
    const sibling = await app.addProject(filters, "Filters sibling");
    sameOrg = { ...filters, projectId: sibling.projectId, key: sibling.key };
    other = await app.seed({ orgName: "Filter other org", projectName: "Other" });
    supportChannel = await channelOf(filters, `filters-${Date.now()}`);
    otherChannel = await channelOf(other, `other-${Date.now()}`);
    for (const person of PEOPLE) {
      app.clock.advance(1000);
      const channelId = person.support === "last_channel" ? supportChannel : undefined;
      const { contact, conversation } = await conversationWith(filters, { name: person.name, phone: person.phone, ...(channelId ? { channelId } : {}) });
      conv[person.label] = conversation.id;
      contactOf[person.label] = contact.id;
      if (person.support === "message") await insertMessage(filters, { id: conversation.id, contactId: contact.id }, { channelId: supportChannel });
      if (person.handoff)
        expect((await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: filters.key, body: { enabled: true } })).status).toBe(200);
    }
    newestFirst = PEOPLE.map((p) => p.label).reverse();
    // The same people in the sibling project and in another organization: never in Filters' lists.
    await conversationWith(sameOrg, { name: "Ana Lima", phone: "+14155550101" });
    await conversationWith(other, { name: "Ana Lima", phone: "+14155550101", channelId: otherChannel });
  });

  async function labelsFor(query: string, seeded: Seeded = filters) {
    const res = await app.call("GET", `/conversations?limit=100&${query}`, { key: seeded.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.has_more).toBe(false);
    const byId = new Map(Object.entries(conv).map(([label, id]) => [id, label]));
    return res.body.data.map((c: any) => byId.get(c.id) ?? c.id);
  }

  const only = (...labels: string[]) => newestFirst.filter((l) => labels.includes(l));

  it.each([
    ["no filter", "", () => newestFirst],
    ["an empty q is no filter", "q=", () => newestFirst],
    ["q: a name substring, any case", "q=aNa", () => only("ana", "souza")],
    ["q: a name word", `q=${encodeURIComponent("Lima")}`, () => only("ana")],
    ["q: a phone substring with +", `q=${encodeURIComponent("+55119")}`, () => only("souza")],
    ["q: phone digits", "q=4930", () => only("nameless")],
    ["q: a number typed with spaces, brackets and dashes", `q=${encodeURIComponent("+1 (415) 555-0102")}`, () => only("bruno")],
    ["q: matching nothing", "q=nobody", () => []],
    ["q: % matches itself only", `q=${encodeURIComponent("%")}`, () => only("percent")],
    ["q: _ matches itself only", `q=${encodeURIComponent("a_b")}`, () => only("underscore")],
    ["q: a backslash matches itself", `q=${encodeURIComponent("k\\s")}`, () => only("backslash")],
    ["channel_id: a message on it, or it is the last channel", `channel_id={support}`, () => only("bruno", "souza", "axb")],
    ["channel_id: the sandbox", `channel_id=${SANDBOX_CHANNEL_ID}`, () => only("ana", "percent", "underscore", "backslash", "nameless", "bruno", "souza")],
    ["contact_id", "contact_id={contact:souza}", () => only("souza")],
    ["handoff HUMAN_ACTIVE", "handoff=HUMAN_ACTIVE", () => only("bruno", "percent")],
    ["handoff AI_ACTIVE", "handoff=AI_ACTIVE", () => only("ana", "souza", "underscore", "axb", "backslash", "nameless")],
    ["q + channel_id", "q=ana&channel_id={support}", () => only("souza")],
    ["q + handoff", `q=${encodeURIComponent("+1415")}&handoff=HUMAN_ACTIVE`, () => only("bruno", "percent")],
    ["channel_id + handoff + contact_id", "channel_id={support}&handoff=HUMAN_ACTIVE&contact_id={contact:bruno}", () => only("bruno")],
    ["contact_id + a handoff it does not have", "contact_id={contact:bruno}&handoff=AI_ACTIVE", () => []],
  ])("%s", async (_label, query, expected) => {
    const resolved = query.replace("{support}", supportChannel).replace(/\{contact:(\w+)\}/g, (_m, label: string) => contactOf[label]!);
    expect(await labelsFor(resolved)).toEqual(expected());
  });

  it("pages under a filter: limit and starting_after walk exactly the filtered list", async () => {
    const query = `q=${encodeURIComponent("+1415")}`;
    const expected = await labelsFor(query);
    expect(expected).toEqual(only("ana", "bruno", "percent", "underscore", "axb", "backslash"));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await app.call("GET", `/conversations?limit=2&${query}${cursor ? `&starting_after=${cursor}` : ""}`, { key: filters.key });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: any) => c.id));
      if (!res.body.has_more) break;
      cursor = res.body.data.at(-1).id;
    }
    expect(seen).toEqual(expected.map((label: string) => conv[label]));
  });

  it("a cursor that no longer matches the filter still pages on from where it was", async () => {
    const first = await app.call("GET", "/conversations?limit=1&handoff=HUMAN_ACTIVE", { key: filters.key });
    expect(first.body).toMatchObject({ has_more: true, data: [{ id: conv.percent }] });
    await app.call("POST", `/conversations/${conv.percent}/handoff`, { key: filters.key, body: { enabled: false } });
    try {
      const next = await app.call("GET", `/conversations?limit=1&handoff=HUMAN_ACTIVE&starting_after=${conv.percent}`, { key: filters.key });
      expect(next.status).toBe(200);
      expect(next.body).toMatchObject({ has_more: false, data: [{ id: conv.bruno }] });
    } finally {
      await app.call("POST", `/conversations/${conv.percent}/handoff`, { key: filters.key, body: { enabled: true } });
    }
  });

  it("another project's or organization's channel and contact ids match nothing; unknown ids neither", async () => {
    const sameOrgContact = (await app.call("GET", "/conversations?q=Lima", { key: sameOrg.key })).body.data[0].contact_id;
    expect(sameOrgContact).toBe(contactOf.ana);
    const theirContact = (await app.call("GET", "/conversations", { key: other.key })).body.data[0].contact_id;
    expect(await labelsFor(`channel_id=${otherChannel}`)).toEqual([]);
    expect(await labelsFor(`contact_id=${theirContact}`)).toEqual([]);
    expect(await labelsFor("channel_id=ch_00000000000000000000000000")).toEqual([]);
    expect(await labelsFor("contact_id=ct_00000000000000000000000000")).toEqual([]);
    // The same person (same contact id) in the sibling project: each project sees its own conversation only.
    expect(await labelsFor(`contact_id=${contactOf.ana}`)).toEqual(["ana"]);
    const siblings = await app.call("GET", `/conversations?contact_id=${contactOf.ana}&q=ana`, { key: sameOrg.key });
    expect(siblings.body.data).toHaveLength(1);
    expect(siblings.body.data[0].id).not.toBe(conv.ana);
    // Filters' own channel, asked by the sibling project: none of Filters' conversations.
    expect((await app.call("GET", `/conversations?channel_id=${supportChannel}`, { key: sameOrg.key })).body.data).toEqual([]);
    // q never reaches into another tenant's contacts.
    expect((await app.call("GET", "/conversations?q=Lima", { key: other.key })).body.data.map((c: any) => c.id)).not.toContain(conv.ana);
  });

  it("400 invalid_request naming handoff for any other value, and q over 200 characters", async () => {
    for (const value of ["human", "ai_active", "HUMAN", ""]) {
      const res = await app.call("GET", `/conversations?handoff=${value}`, { key: filters.key });
      expectError(res, 400, "invalid_request");
      expectHandlerHeaders(res);
      expect(Object.keys(res.body.issues)).toEqual(["handoff"]);
      expect(res.body.issues.handoff).toEqual(["Expected AI_ACTIVE or HUMAN_ACTIVE."]);
    }
    const long = await app.call("GET", `/conversations?q=${"a".repeat(201)}`, { key: filters.key });
    expectError(long, 400, "invalid_request");
    expect(Object.keys(long.body.issues)).toEqual(["q"]);
  });

  it("filters need only conversations:read", async () => {
    const reader = await app.addKey(filters, ["conversations:read"]);
    const res = await app.call("GET", `/conversations?q=ana&channel_id=${supportChannel}&handoff=AI_ACTIVE&contact_id=${contactOf.souza}`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => c.id)).toEqual([conv.souza]);
  });
});

describe("GET /conversations/{id}/messages", () => {
  let conversation: { id: string; contactId: string };
  let inbound: typeof messages.$inferSelect;
  let failed: typeof messages.$inferSelect;
  let image: typeof messages.$inferSelect;

  const FAILURE = {
    provider: "provider" as const,
    summary: "The provider refused the message.",
    code: 131026,
    subcode: null,
    type: "OAuthException",
    title: "Message undeliverable",
    message: "(#131026) Message undeliverable",
    fbtrace_id: "AbC123",
    http_status: 400,
    occurred_at: "2026-06-18T12:00:01.000Z",
  };
  const MEDIA = {
    id: null,
    type: "image",
    url: null,
    expires_at: null,
    mime_type: "image/jpeg",
    file_name: null,
    file_size: null,
    platform_a_media_id: "media-1",
    provider: "platform_a",
    provider_media_id: "media-1",
    accessible: false,
    status: "unavailable",
    access_policy: "signed_url",
    error_code: "not_cached",
    note: "not cached",
  };

  beforeAll(async () => {
    conversation = (await conversationWith(acme)).conversation;
    app.clock.advance(1000);
    inbound = await insertMessage(acme, conversation, { content: "Hi!", platformMessageId: "wamid.IN-1" });
    app.clock.advance(1000);
    failed = await insertMessage(acme, conversation, {
      direction: "outbound",
      status: "failed",
      content: "Welcome",
      platformMessageId: null,
      providerTimestamp: null,
      failure: FAILURE,
      recipient: "14155550000",
    });
    app.clock.advance(1000);
    image = await insertMessage(acme, conversation, { type: "image", content: null, media: MEDIA, replyTo: "wamid.IN-1", platformMessageId: "wamid.IN-2" });
  });

  it("lists the messages newest first with exactly the Message fields", async () => {
    const res = await app.call("GET", `/conversations/${conversation.id}/messages`, { key: acme.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expect(res.body.object).toBe("list");
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((m: any) => m.id)).toEqual([image.id, failed.id, inbound.id]);
    for (const item of res.body.data) expect(Object.keys(item).sort()).toEqual(MESSAGE_FIELDS);
    // Text and media messages have no structured content (tests/messages/message-content.test.ts has the rest).
    const noContent = { interactive: null, location: null, contacts: null, template: null, reaction: null, sticker: null };
    const common = { object: "message", conversation_id: conversation.id, contact_id: conversation.contactId, channel_id: SANDBOX_CHANNEL_ID, ...noContent };
    expect(res.body.data[2]).toEqual({
      ...common,
      id: inbound.id,
      message_id: inbound.id,
      direction: "inbound",
      type: "text",
      status: "delivered",
      content: "Hi!",
      platform_message_id: "wamid.IN-1",
      reply_to: null,
      failure: null,
      media: null,
      timestamp: inbound.timestamp.toISOString(),
    });
    expect(res.body.data[1]).toEqual({
      ...common,
      id: failed.id,
      message_id: failed.id,
      direction: "outbound",
      type: "text",
      status: "failed",
      content: "Welcome",
      platform_message_id: null,
      reply_to: null,
      failure: FAILURE,
      media: null,
      timestamp: failed.timestamp.toISOString(),
    });
    expect(res.body.data[0]).toEqual({
      ...common,
      id: image.id,
      message_id: image.id,
      direction: "inbound",
      type: "image",
      status: "delivered",
      content: null,
      platform_message_id: "wamid.IN-2",
      reply_to: "wamid.IN-1",
      failure: null,
      media: MEDIA,
      timestamp: image.timestamp.toISOString(),
    });
  });

  it("pages with limit and starting_after", async () => {
    const first = await app.call("GET", `/conversations/${conversation.id}/messages?limit=2`, { key: acme.key });
    expect(first.body.data.map((m: any) => m.id)).toEqual([image.id, failed.id]);
    expect(first.body.has_more).toBe(true);
    const second = await app.call("GET", `/conversations/${conversation.id}/messages?limit=2&starting_after=${failed.id}`, { key: acme.key });
    expect(second.body.data.map((m: any) => m.id)).toEqual([inbound.id]);
    expect(second.body.has_more).toBe(false);
  });

  it("400 for an unknown cursor and for a message of another conversation as cursor", async () => {
    const other = (await conversationWith(acme)).conversation;
    const stranger = await insertMessage(acme, other);
    for (const cursor of ["msg_00000000000000000000000000", stranger.id]) {
      const res = await app.call("GET", `/conversations/${conversation.id}/messages?starting_after=${cursor}`, { key: acme.key });
      expectError(res, 400, "invalid_request");
      expect(res.body.issues).toHaveProperty("starting_after");
    }
  });

  it("a conversation without messages has an empty list", async () => {
    const empty = (await conversationWith(acme)).conversation;
    expect((await app.call("GET", `/conversations/${empty.id}/messages`, { key: acme.key })).body).toEqual({ object: "list", data: [], has_more: false });
  });

  it("404 for another project's conversation, and for an unknown one", async () => {
    const theirs = (await conversationWith(sibling)).conversation;
    await insertMessage(sibling, theirs, { content: "secret" });
    for (const id of [theirs.id, "conv_00000000000000000000000000"]) {
      const res = await app.call("GET", `/conversations/${id}/messages`, { key: acme.key });
      expectError(res, 404, "not_found");
      expect(JSON.stringify(res.body)).not.toContain("secret");
    }
  });
});

describe("POST /conversations/{id}/handoff", () => {
  it("on: HUMAN_ACTIVE with reason and handoff_at; on again keeps handoff_at; off: AI_ACTIVE", async () => {
    const { conversation } = await conversationWith(acme);
    app.clock.advance(1000);
    const startedAt = app.clock.now().toISOString();
    const on = await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: true, reason: "Angry customer" } });
    expect(on.status).toBe(200);
    expectHandlerHeaders(on);
    expect(Object.keys(on.body).sort()).toEqual(CONVERSATION_FIELDS);
    expect(on.body).toMatchObject({
      id: conversation.id,
      handoff: { status: "HUMAN_ACTIVE", reason: "Angry customer", handoff_at: startedAt },
      updated_at: startedAt,
    });
    expect((await app.call("GET", `/conversations/${conversation.id}`, { key: acme.key })).body).toEqual(on.body);

    app.clock.advance(1000);
    const again = await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: true } });
    expect(again.body.handoff).toEqual({ status: "HUMAN_ACTIVE", reason: "Angry customer", handoff_at: startedAt });
    const reason = await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: true, reason: "Billing" } });
    expect(reason.body.handoff).toEqual({ status: "HUMAN_ACTIVE", reason: "Billing", handoff_at: startedAt });

    app.clock.advance(1000);
    const off = await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: false } });
    expect(off.body).toMatchObject({ handoff: AI_ACTIVE, updated_at: app.clock.now().toISOString() });
    const row = await conversationRow(conversation.id);
    expect(row).toMatchObject({ handoffStatus: "AI_ACTIVE", handoffReason: null, handoffAt: null });
    // Off again is harmless.
    expect((await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: false } })).body.handoff).toEqual(AI_ACTIVE);
  });

  it("reason is optional and may be null", async () => {
    const { conversation } = await conversationWith(acme);
    const res = await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: true, reason: null } });
    expect(res.body.handoff).toEqual({ status: "HUMAN_ACTIVE", reason: null, handoff_at: app.clock.now().toISOString() });
  });

  it("shows in the list too", async () => {
    const { conversation } = await conversationWith(acme);
    await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body: { enabled: true } });
    const listed = (await app.call("GET", "/conversations?limit=100", { key: acme.key })).body.data.find((c: any) => c.id === conversation.id);
    expect(listed.handoff.status).toBe("HUMAN_ACTIVE");
  });

  it.each([
    [{}, "enabled"],
    [{ enabled: "yes" }, "enabled"],
    [{ enabled: null }, "enabled"],
    [{ enabled: true, reason: "r".repeat(501) }, "reason"],
    [{ enabled: true, reason: 7 }, "reason"],
    [{ enabled: true, status: "HUMAN_ACTIVE" }, "status"],
  ])("400 invalid_request for %j keyed by %s; nothing changes", async (body, field) => {
    const { conversation } = await conversationWith(acme);
    const before = await conversationRow(conversation.id);
    const res = await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: acme.key, body });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual([field]);
    expect(await conversationRow(conversation.id)).toEqual(before);
  });

  it("404 for another project's conversation, which stays unchanged", async () => {
    const theirs = (await conversationWith(sibling)).conversation;
    for (const key of [acme.key, globex.key]) {
      expectError(await app.call("POST", `/conversations/${theirs.id}/handoff`, { key, body: { enabled: true, reason: "x" } }), 404, "not_found");
    }
    expect((await conversationRow(theirs.id)).handoffStatus).toBe("AI_ACTIVE");
  });
});

describe("messaging_window: the 24-hour window on the conversation's last channel", () => {
  const DAY_MS = 24 * 3600_000;
  const windowOf = async (id: string) => (await app.call("GET", `/conversations/${id}`, { key: acme.key })).body.messaging_window;

  it("closed with a null closes_at while the customer has never written (an outbound message does not open it)", async () => {
    const { conversation } = await conversationWith(acme);
    expect(await windowOf(conversation.id)).toEqual({ open: false, closes_at: null });
    await insertMessage(acme, conversation, { direction: "outbound", status: "sent", providerTimestamp: null });
    expect(await windowOf(conversation.id)).toEqual({ open: false, closes_at: null });
  });

  it("open until 24 h after the last inbound (provider time), closed from then on with closes_at in the past", async () => {
    const { conversation } = await conversationWith(acme);
    const start = app.clock.now().getTime();
    try {
      const inbound = new Date(start - 3600_000);
      await insertMessage(acme, conversation, { timestamp: app.clock.now(), providerTimestamp: inbound });
      const closesAt = new Date(inbound.getTime() + DAY_MS).toISOString();
      expect(await windowOf(conversation.id)).toEqual({ open: true, closes_at: closesAt });

      app.clock.set(inbound.getTime() + DAY_MS - 1000);
      expect(await windowOf(conversation.id)).toEqual({ open: true, closes_at: closesAt });
      app.clock.set(inbound.getTime() + DAY_MS);
      expect(await windowOf(conversation.id)).toEqual({ open: false, closes_at: closesAt });
      // The list serializes the same window.
      const listed = (await app.call("GET", "/conversations?limit=100", { key: acme.key })).body.data.find((c: any) => c.id === conversation.id);
      expect(listed.messaging_window).toEqual({ open: false, closes_at: closesAt });

      // A new customer message opens it again, from that message's time.
      const again = app.clock.now();
      await insertMessage(acme, conversation, { timestamp: again, providerTimestamp: again });
      expect(await windowOf(conversation.id)).toEqual({ open: true, closes_at: new Date(again.getTime() + DAY_MS).toISOString() });
    } finally {
      app.clock.set(start);
    }
  });

  it("only the last channel's customer messages count, as for POST /messages replies", async () => {
    const { conversation } = await conversationWith(acme);
    await insertMessage(acme, conversation, { channelId: "ch_00000000000000000000000001" });
    expect(await windowOf(conversation.id)).toEqual({ open: false, closes_at: null });
  });
});

describe("scopes", () => {
  it("conversations:read lists and reads; handoff needs messages:send", async () => {
    const { conversation } = await conversationWith(acme);
    const reader = await app.addKey(acme, ["conversations:read"]);
    const sender = await app.addKey(acme, ["messages:send"]);

    for (const path of ["/conversations", `/conversations/${conversation.id}`, `/conversations/${conversation.id}/messages`]) {
      expect((await app.call("GET", path, { key: reader })).status).toBe(200);
      const denied = await app.call("GET", path, { key: sender });
      expectError(denied, 403, "insufficient_scope");
      expect(denied.body.required_scope).toBe("conversations:read");
    }
    const denied = await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: reader, body: { enabled: true } });
    expectError(denied, 403, "insufficient_scope");
    expect(denied.body.required_scope).toBe("messages:send");
    expect((await conversationRow(conversation.id)).handoffStatus).toBe("AI_ACTIVE");
    expect((await app.call("POST", `/conversations/${conversation.id}/handoff`, { key: sender, body: { enabled: true } })).status).toBe(200);
  });

  it("401 without a key", async () => {
    expectError(await app.call("GET", "/conversations"), 401, "missing_api_key");
    expectError(await app.call("POST", "/conversations/conv_00000000000000000000000000/handoff", { body: { enabled: true } }), 401, "missing_api_key");
  });
});

describe("through the simulator: a sandbox tester's conversation", () => {
  let tester: string;
  let seeded: Seeded;
  let conversationId: string;

  // Each test has its own project and tester (a distinct number: pair pacing is keyed by recipient).
  beforeEach(async () => {
    tester = testerNumber();
    seeded = await app.seed({ orgName: "Sim org", projectName: "Sim" });
    const [project] = await app.db.select().from(projects).where(eq(projects.id, seeded.projectId));
    await h.customer({ from: tester, name: "Carla", type: "text", text: `join ${project!.joinCode}` });
    await h.settle(20);
    await h.customer({ from: tester, name: "Carla", type: "text", text: "Where is my order?" });
    await h.settle(20);
    const list = await app.call("GET", "/conversations", { key: seeded.key });
    conversationId = list.body.data[0].id;
  });

  it("the conversation lists with the tester's phone and name", async () => {
    const list = await app.call("GET", "/conversations", { key: seeded.key });
    expect(list.body.data).toHaveLength(1);
    const conversation = list.body.data[0];
    expect(conversation.id).toBe(conversationId);
    expect(conversation).toMatchObject({
      object: "conversation",
      phone: `+${tester}`,
      name: "Carla",
      reference_id: null,
      last_channel_id: SANDBOX_CHANNEL_ID,
      is_active: true,
      handoff: AI_ACTIVE,
    });
    expect(conversation.last_message_at).not.toBeNull();
    expect(conversation.messaging_window.open).toBe(true);
    const contact = await app.call("GET", `/contacts/${conversation.contact_id}`, { key: seeded.key });
    expect(contact.body).toMatchObject({ phone: `+${tester}`, name: "Carla", opt_in: { status: "active", source: "sandbox_join" } });
  });

  it("messages hold the inbound texts, then a reply sent with POST /messages, newest first", async () => {
    const reply = await app.call("POST", "/messages", {
      key: seeded.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "On its way!" },
    });
    expect(reply.status).toBe(200);
    await h.settle(100);
    const res = await app.call("GET", `/conversations/${conversationId}/messages`, { key: seeded.key });
    expect(res.body.data.map((m: any) => [m.direction, m.content])).toEqual([
      ["outbound", "On its way!"],
      ["inbound", "Where is my order?"],
      ["inbound", `join ${(await app.db.select().from(projects).where(eq(projects.id, seeded.projectId)))[0]!.joinCode}`],
    ]);
    const [out, inbound] = res.body.data;
    expect(out).toMatchObject({ id: reply.body.id, conversation_id: conversationId, channel_id: SANDBOX_CHANNEL_ID, type: "text", failure: null, media: null });
    expect(out.platform_message_id).toMatch(/^wamid\./);
    expect(inbound).toMatchObject({ direction: "inbound", type: "text", status: "delivered", contact_id: out.contact_id, reply_to: null });
    expect(inbound.platform_message_id).toMatch(/^wamid\./);
    for (const item of res.body.data) expect(Object.keys(item).sort()).toEqual(MESSAGE_FIELDS);
  });

  it("handoff on: automated replies get 409 ai_handoff_active and inbound is no longer delivered to the webhook", async () => {
    const on = await app.call("POST", `/conversations/${conversationId}/handoff`, { key: seeded.key, body: { enabled: true, reason: "human" } });
    expect(on.body.handoff.status).toBe("HUMAN_ACTIVE");
    const refused = await app.call("POST", "/messages", {
      key: seeded.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "bot reply" },
    });
    expectError(refused, 409, "ai_handoff_active");

    await h.customer({ from: tester, name: "Carla", type: "text", text: "Hello? A human please" });
    await h.settle(20);
    const received = (await h.eventsOf(seeded.projectId, "message.received")).filter((e) => (e.payload as any).text === "Hello? A human please");
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ deliver: false, route: "handoff" });
    expect((received[0]!.payload as any).ai_handoff).toMatchObject({ status: "HUMAN_ACTIVE", reason: "human", is_on_hold: true });

    await app.call("POST", `/conversations/${conversationId}/handoff`, { key: seeded.key, body: { enabled: false } });
    // Handoff off: replies are allowed again (pair pacing, on the wall clock, may still ask to wait).
    const allowed = await app.call("POST", "/messages", {
      key: seeded.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "bot reply" },
    });
    expect(allowed.body.error).not.toBe("ai_handoff_active");
    expect([200, 429]).toContain(allowed.status);
  });

  it("24 h after the tester's last message the window reads closed and POST /messages agrees (409 outside_messaging_window)", async () => {
    const inbound = (await app.call("GET", `/conversations/${conversationId}/messages`, { key: seeded.key })).body.data.find(
      (m: any) => m.direction === "inbound",
    );
    const [row] = await app.db.select({ at: messages.providerTimestamp }).from(messages).where(eq(messages.id, inbound.id));
    const closesAt = row!.at!.getTime() + 24 * 3600_000;
    const before = app.clock.now().getTime();
    try {
      app.clock.set(closesAt);
      const conversation = (await app.call("GET", `/conversations/${conversationId}`, { key: seeded.key })).body;
      expect(conversation.messaging_window).toEqual({ open: false, closes_at: new Date(closesAt).toISOString() });
      const refused = await app.call("POST", "/messages", {
        key: seeded.key,
        body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Too late" },
      });
      expectError(refused, 409, "outside_messaging_window");
    } finally {
      app.clock.set(before);
    }
  });
});
