import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { contactIdentities, contacts, conversations } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { upsertContactAndConversation } from "@/lib/domain/ingest/contact-conversation";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { statementsDuring } from "../support/statements";

/**
 * Every inbound message upserts its sender's contact and conversation. For a customer the project knows,
 * that is one statement (the conversation's upsert reads the contact's id as a CTE); a new customer's
 * contact first has its identity linked, and only then gets its conversation.
 */
let app: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app?.close());

const input = (phone: string, at: Date, name: string | null = null) => ({
  projectId: seeded.projectId,
  organizationId: seeded.orgId,
  channelId: SANDBOX_CHANNEL_ID,
  platform: "PLATFORM_A",
  phone,
  name,
  now: at,
});

describe("upsertContactAndConversation", () => {
  it("makes a new customer's contact, links its identity, then its conversation", async () => {
    const at = new Date("2026-11-30T10:00:00.000Z");
    const { contact, conversation } = await upsertContactAndConversation(app.db, input("+15557770001", at, "Ada"));
    expect(contact).toMatchObject({ projectId: seeded.projectId, phone: "+15557770001", name: "Ada" });
    expect(contact.createdAt).toBeInstanceOf(Date);
    expect(conversation).toMatchObject({ projectId: seeded.projectId, contactId: contact.id, lastChannelId: SANDBOX_CHANNEL_ID, isActive: true });
    expect(conversation.startedAt).toEqual(at);
    const [identity] = await app.db
      .select()
      .from(contactIdentities)
      .where(and(eq(contactIdentities.kind, "phone"), eq(contactIdentities.value, "15557770001")));
    expect(identity?.contactId).toBe(contact.id);
  });

  it("answers a known customer in one statement: the same contact and conversation, refreshed and reopened", async () => {
    const first = await upsertContactAndConversation(app.db, input("+15557770002", new Date("2026-11-30T10:00:00.000Z"), "Grace"));
    await app.db.update(conversations).set({ isActive: false }).where(eq(conversations.id, first.conversation.id));
    const later = new Date("2026-11-30T11:00:00.000Z");
    const { result, statements } = await statementsDuring(app.db, () => upsertContactAndConversation(app.db, input("+15557770002", later, null)));
    expect(statements).toHaveLength(1);
    expect(result.contact).toMatchObject({ id: first.contact.id, name: "Grace" });
    expect(result.contact.updatedAt).toEqual(later);
    expect(result.conversation).toMatchObject({ id: first.conversation.id, contactId: first.contact.id, isActive: true });
    expect(result.conversation.updatedAt).toEqual(later);
    expect(result.conversation.startedAt).toEqual(first.conversation.startedAt);
    const rows = await app.db.select().from(conversations).where(eq(conversations.contactId, first.contact.id));
    expect(rows).toHaveLength(1);
  });

  it("moves the conversation's last message to touchAt, never back, and leaves it without one", async () => {
    const later = new Date("2026-11-30T10:00:02.000Z");
    const earlier = new Date("2026-11-30T10:00:01.000Z");
    const first = await upsertContactAndConversation(app.db, input("+15557770004", new Date("2026-11-30T10:00:03.000Z")), later);
    expect(first.conversation.lastMessageAt).toEqual(later);
    // An older message stored later (retries, provider timestamps): the conversation keeps the later time.
    const older = await upsertContactAndConversation(app.db, input("+15557770004", new Date("2026-11-30T10:00:04.000Z")), earlier);
    expect(older.conversation.lastMessageAt).toEqual(later);
    // No message stored with it (an edit's, a status's contact): nothing moves.
    const none = await upsertContactAndConversation(app.db, input("+15557770004", new Date("2026-11-30T10:00:05.000Z")));
    expect(none.conversation.lastMessageAt).toEqual(later);
    const newer = new Date("2026-11-30T10:00:06.000Z");
    const moved = await upsertContactAndConversation(app.db, input("+15557770004", newer), newer);
    expect(moved.conversation).toMatchObject({ id: first.conversation.id, lastMessageAt: newer });
  });

  it("gives a new customer's first conversation its message's time", async () => {
    const at = new Date("2026-11-30T09:00:00.000Z");
    const { conversation } = await upsertContactAndConversation(app.db, input("+15557770005", new Date("2026-11-30T09:00:01.000Z")), at);
    expect(conversation.lastMessageAt).toEqual(at);
  });

  it("hands a new customer's message to the contact another writer linked the identity to first", async () => {
    // The other writer's contact and link, made as if between this upsert and its link.
    const theirs = newId("contact");
    await app.db.insert(contacts).values({
      id: theirs,
      projectId: seeded.projectId,
      organizationId: seeded.orgId,
      channelId: SANDBOX_CHANNEL_ID,
      platform: "PLATFORM_A",
      phone: "+15557770003",
    });
    const session = (app.db as unknown as { session: { prepareQuery: (...args: unknown[]) => unknown } }).session;
    const original = session.prepareQuery.bind(session);
    let linked = false;
    // The link is written just before the statement that reads it (settleContact's first read).
    const spy = vi.spyOn(session, "prepareQuery").mockImplementation((...args: unknown[]) => {
      const name = args[2];
      if (name === "contact_identity_owner" && !linked) {
        linked = true;
        return {
          execute: async (values: Record<string, unknown>) => {
            await app.db
              .insert(contactIdentities)
              .values({ id: newId("contact"), organizationId: seeded.orgId, kind: "phone", value: "15557770003", contactId: theirs });
            return (original(...args) as { execute(v: Record<string, unknown>): Promise<unknown> }).execute(values);
          },
        };
      }
      return original(...args);
    });
    try {
      const { contact, conversation } = await upsertContactAndConversation(app.db, input("+15557770003", new Date("2026-11-30T12:00:00.000Z")));
      expect(linked).toBe(true);
      expect(contact.id).toBe(theirs);
      expect(conversation.contactId).toBe(theirs);
    } finally {
      spy.mockRestore();
    }
    const all = await app.db.select().from(contacts).where(eq(contacts.phone, "+15557770003"));
    expect(all.map((c) => c.id)).toEqual([theirs]);
  });
});
