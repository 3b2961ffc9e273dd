import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { contactIdentities, messages } from "@/lib/db/schema";
import { WEBHOOK_DELIVER_JOB } from "@/lib/domain/webhooks/enqueue";
import { scopesOfRole } from "@/lib/domain/members/roles";
import type { Seeded } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { startHarness, type Harness } from "../messages/support";
import { testerNumber } from "../messages/send-support";
import { scanForNeedles, seedRichContact } from "./erase-support";

let h: Harness;
let receiver: Receiver;

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

/** A project of its own with the receiver as webhook, and a sibling project in the same organization. */
async function projectWithWebhook(): Promise<{ acme: Seeded; sibling: Seeded }> {
  const acme = await h.app.seed();
  await h.app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/in` } });
  const extra = await h.app.addProject(acme);
  return { acme, sibling: { ...acme, projectId: extra.projectId, key: extra.key } };
}

const erase = (key: string, id: string) => h.app.call("DELETE", `/contacts/${id}`, { key });

describe("DELETE /contacts/{id}", () => {
  it("erases every kind of personal data the project held: no table keeps the number, name, texts or answers", async () => {
    const { acme, sibling } = await projectWithWebhook();
    const person = await seedRichContact(h, acme);
    const other = await seedRichContact(h, sibling, { flow: false });
    expect((await scanForNeedles(h, person.needles)).length).toBeGreaterThan(0);
    for (const key of person.mediaKeys) expect(await h.app.runtime.ports.storage.stat(key)).not.toBeNull();
    expect(person.mediaKeys.length).toBeGreaterThan(0);

    const res = await erase(acme.key, person.contactId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: "contact",
      id: person.contactId,
      deleted: true,
      erased: true,
      deleted_data_types: ["profile", "messages", "media", "opt_ins", "flow_submissions", "registration_intents", "webhook_payloads"],
    });
    await h.settle(10);

    // Every table of our schema and of the job queue's (job payloads and outputs).
    expect(await scanForNeedles(h, person.needles, ["public", "pgboss"])).toEqual([]);
    for (const key of person.mediaKeys) expect(await h.app.runtime.ports.storage.stat(key)).toBeNull();
    // The other project's person is untouched, files included.
    expect((await scanForNeedles(h, [other.phone, other.name])).length).toBeGreaterThan(0);
    for (const key of other.mediaKeys) expect(await h.app.runtime.ports.storage.stat(key)).not.toBeNull();
    expect((await h.app.call("GET", `/contacts/${other.contactId}`, { key: sibling.key })).body.phone).toBe(`+${other.phone}`);
  }, 60_000);

  it("leaves the messages as tombstones: ids, times, direction, type and status, no content", async () => {
    const { acme } = await projectWithWebhook();
    const person = await seedRichContact(h, acme, { flow: false });
    const before = await h.app.db.select().from(messages).where(eq(messages.contactId, person.contactId));
    expect((await erase(acme.key, person.contactId)).status).toBe(200);
    const after = await h.app.db.select().from(messages).where(eq(messages.contactId, person.contactId));
    expect(after.map((m) => m.id).sort()).toEqual(before.map((m) => m.id).sort());
    for (const row of after) {
      const was = before.find((m) => m.id === row.id)!;
      expect(row).toMatchObject({ direction: was.direction, type: was.type, status: was.status, timestamp: was.timestamp });
      expect(row).toMatchObject({ content: null, body: {}, recipient: null, replyTo: null, failure: null, media: null, platformMessageId: null });
      // The API still serves a tombstone by id (the contact_id it names answers 404).
      const wire = await h.app.call("GET", `/messages/${row.id}`, { key: acme.key });
      expect(wire.status).toBe(200);
      expect(wire.body).toMatchObject({ id: row.id, direction: was.direction, status: was.status, content: null, media: null, failure: null });
    }
  });

  it("answers 404 afterwards: the contact, a second DELETE; the conversation leaves the list", async () => {
    const { acme } = await projectWithWebhook();
    const person = await seedRichContact(h, acme, { flow: false });
    expect((await erase(acme.key, person.contactId)).status).toBe(200);
    expect((await h.app.call("GET", `/contacts/${person.contactId}`, { key: acme.key })).status).toBe(404);
    const again = await erase(acme.key, person.contactId);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("not_found");
    expect((await h.app.call("GET", `/conversations/${person.conversationId}`, { key: acme.key })).status).toBe(404);
    const list = await h.app.call("GET", "/conversations?limit=100", { key: acme.key });
    expect(list.body.data.map((c: { contact_id: string }) => c.contact_id)).not.toContain(person.contactId);
  });

  it("a later message from the same number starts a new contact with a new id", async () => {
    const { acme } = await projectWithWebhook();
    const person = await seedRichContact(h, acme, { flow: false });
    expect((await erase(acme.key, person.contactId)).status).toBe(200);
    // Erasure also ended the sandbox membership (it is the number): the tester joins again.
    await h.join(acme.projectId, person.phone, "Again");
    const list = await h.app.call("GET", "/conversations?limit=100", { key: acme.key });
    const fresh = list.body.data.find((c: { phone: string }) => c.phone === `+${person.phone}`);
    expect(fresh).toBeDefined();
    expect(fresh.contact_id).not.toBe(person.contactId);
    expect(fresh.id).not.toBe(person.conversationId);
    const history = await h.app.call("GET", `/conversations/${fresh.id}/messages`, { key: acme.key });
    expect(history.body.data.every((m: { contact_id: string }) => m.contact_id === fresh.contact_id)).toBe(true);
  });

  it("a pending webhook delivery goes out redacted", async () => {
    const { acme } = await projectWithWebhook();
    const person = await seedRichContact(h, acme, { flow: false });
    const late = `pending text ${person.phone}`;
    receiver.reply = () => ({ status: 503 });
    await h.customer({ from: person.phone, type: "text", text: late });
    await h.settle(20);
    expect((await erase(acme.key, person.contactId)).status).toBe(200);
    receiver.reply = () => ({ status: 200, body: "ok" });
    const start = receiver.received.length;
    await h.app.db.execute(sql`update pgboss.job set start_after = now() where name = ${WEBHOOK_DELIVER_JOB} and state in ('created', 'retry')`);
    await h.settle(20);
    const sent = receiver.received.slice(start).map((r) => r.raw);
    expect(sent.length).toBeGreaterThan(0);
    for (const raw of sent) {
      expect(raw).not.toContain(late);
      expect(raw).not.toContain(person.phone);
    }
    expect(sent.some((raw) => JSON.parse(raw).payload?.erased === true)).toBe(true);
  });

  it("another project of the organization that knows the same person keeps its contact, opt-in and identity", async () => {
    const { acme, sibling } = await projectWithWebhook();
    const person = await seedRichContact(h, acme, { flow: false });
    const enrolled = await h.app.call("POST", "/contacts", { key: sibling.key, body: { phone: `+${person.phone}`, reference_id: "sibling-ref" } });
    expect(enrolled.body.id).toBe(person.contactId);

    expect((await erase(acme.key, person.contactId)).status).toBe(200);
    const kept = await h.app.call("GET", `/contacts/${person.contactId}`, { key: sibling.key });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ phone: `+${person.phone}`, reference_id: "sibling-ref", opt_in: { status: "active" } });
    const identity = await h.app.db
      .select()
      .from(contactIdentities)
      .where(and(eq(contactIdentities.organizationId, acme.orgId), eq(contactIdentities.contactId, person.contactId)));
    expect(identity.length).toBeGreaterThan(0);
    const onlyAcme = person.needles.filter((n) => n !== person.phone);
    expect(await scanForNeedles(h, onlyAcme)).toEqual([]);
  });

  it("another project's contact id is a 404 and erases nothing", async () => {
    const { acme, sibling } = await projectWithWebhook();
    const person = await seedRichContact(h, acme, { flow: false });
    expect((await erase(sibling.key, person.contactId)).status).toBe(404);
    const stranger = await h.app.seed({ orgName: "Other org" });
    expect((await erase(stranger.key, person.contactId)).status).toBe(404);
    expect((await h.app.call("GET", `/contacts/${person.contactId}`, { key: acme.key })).status).toBe(200);
    expect((await scanForNeedles(h, [person.needles.at(-1)!])).length).toBeGreaterThan(0);
  });

  it("needs the contacts:erase scope", async () => {
    const acme = await h.app.seed();
    const created = await h.app.call("POST", "/contacts", { key: acme.key, body: { phone: `+${testerNumber()}` } });
    const reader = await h.app.addKey(acme, ["contacts:read", "contacts:write"]);
    const refused = await erase(reader, created.body.id);
    expect(refused.status).toBe(403);
    const eraser = await h.app.addKey(acme, ["contacts:erase"]);
    const res = await erase(eraser, created.body.id);
    expect(res.status).toBe(200);
    // An enrolled contact that never wrote: only the profile and the opt-in existed.
    expect(res.body.deleted_data_types).toEqual(["profile", "opt_ins"]);
  });

  it("is an owner and admin action in the dashboard, not a developer's or viewer's", () => {
    expect(scopesOfRole("owner")).toContain("contacts:erase");
    expect(scopesOfRole("admin")).toContain("contacts:erase");
    expect(scopesOfRole("developer")).not.toContain("contacts:erase");
    expect(scopesOfRole("developer")).toContain("contacts:write");
    expect(scopesOfRole("viewer")).not.toContain("contacts:erase");
  });
});
