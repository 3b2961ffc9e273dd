import { and, eq, sql } from "drizzle-orm";
import { contactIdentities, contacts, optIns } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { builtOnce } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";

export type ContactRow = typeof contacts.$inferSelect;
export type OptInRow = typeof optIns.$inferSelect;

/** E.164 digits without the plus: the provider's wa_id form and our identity key for phones. */
export function phoneDigits(phone: string): string {
  return phone.replace(/[^\d]/g, "");
}

export interface IdentityInput {
  platform: string;
  phone?: string | null;
  userId?: string | null;
}

/** The contact id an identity already resolves to in the organization, without creating one. */
export async function findContactId(db: Db, organizationId: string, input: IdentityInput): Promise<string | null> {
  const key = identityKey(input);
  if (!key) return null;
  const [row] = await db
    .select({ contactId: contactIdentities.contactId })
    .from(contactIdentities)
    .where(and(eq(contactIdentities.organizationId, organizationId), eq(contactIdentities.kind, key.kind), eq(contactIdentities.value, key.value)));
  return row?.contactId ?? null;
}

function identityKey(input: IdentityInput): { kind: string; value: string } | null {
  if (input.phone) return { kind: "phone", value: phoneDigits(input.phone) };
  if (input.userId) return { kind: `user:${input.platform}`, value: input.userId };
  return null;
}

/**
 * Points an identity at a contact id (first writer wins) and returns the id it points at. An identity
 * is written once and read on every inbound message after, so the read comes first: one statement for
 * a known customer instead of a refused insert and a read.
 */
async function linkIdentity(db: Db, organizationId: string, key: { kind: string; value: string }, contactId: string): Promise<string> {
  const owner = { organizationId, kind: key.kind, value: key.value };
  const [known] = await identityOwner(db, owner);
  if (known) return known.contactId;
  const [inserted] = await insertIdentity(db, { id: newId("contact"), contactId, ...owner });
  if (inserted) return inserted.contactId;
  // Another writer linked it between the read and the insert: theirs wins.
  const [existing] = await identityOwner(db, owner);
  return existing!.contactId;
}

// Ingest runs these in its transaction for every inbound message: built once (builtOnce), not per transaction.
const insertIdentity = builtOnce<{ contactId: string }>("contact_identity_insert", (db) =>
  db
    .insert(contactIdentities)
    .values({
      id: sql.placeholder("id"),
      contactId: sql.placeholder("contactId"),
      organizationId: sql.placeholder("organizationId"),
      kind: sql.placeholder("kind"),
      value: sql.placeholder("value"),
    })
    .onConflictDoNothing()
    .returning({ contactId: contactIdentities.contactId }),
);
const identityOwner = builtOnce<{ contactId: string }>("contact_identity_owner", (db) =>
  db
    .select({ contactId: contactIdentities.contactId })
    .from(contactIdentities)
    .where(
      and(
        eq(contactIdentities.organizationId, sql.placeholder("organizationId")),
        eq(contactIdentities.kind, sql.placeholder("kind")),
        eq(contactIdentities.value, sql.placeholder("value")),
      ),
    ),
);

/** After a number or identity migration the new identity resolves to the same contact. */
export async function aliasIdentity(db: Db, organizationId: string, input: IdentityInput, contactId: string): Promise<void> {
  const key = identityKey(input);
  if (key) await linkIdentity(db, organizationId, key, contactId);
}

export interface ContactUpsert {
  projectId: string;
  organizationId: string;
  channelId: string;
  platform: string;
  phone?: string | null;
  userId?: string | null;
  parentUserId?: string | null;
  username?: string | null;
  name?: string | null;
  now: Date;
}

/** Creates the project's contact for this identity, or refreshes what the platform told us about it. */
export async function upsertContact(db: Db, input: ContactUpsert): Promise<ContactRow> {
  const upsert = contactUpsertOf(input);
  const [row] = await contactUpsert(db, upsert.values);
  return settleContact(db, upsert, row!);
}

/** One contact upsert's placeholder values (contactUpsertQuery's), and the id it takes when the identity is new. */
export interface ContactUpsertValues {
  values: Record<string, unknown> & { fresh: string };
  organizationId: string;
  key: { kind: string; value: string };
}

export function contactUpsertOf(input: ContactUpsert): ContactUpsertValues {
  const key = identityKey(input);
  if (!key) throw new Error("A contact needs a phone number or a platform user id");
  const phone = input.phone ? `+${phoneDigits(input.phone)}` : null;
  // One statement for a known customer (every message after their first): the contact id is read from
  // the identity inside the upsert, a new id only when the identity is unknown.
  const values = {
    projectId: input.projectId,
    organizationId: input.organizationId,
    channelId: input.channelId,
    platform: input.platform,
    phone,
    userId: input.userId ?? null,
    parentUserId: input.parentUserId ?? null,
    username: input.username ?? null,
    name: input.name ?? null,
    now: input.now,
    kind: key.kind,
    value: key.value,
    fresh: newId("contact"),
  };
  return { values, organizationId: input.organizationId, key };
}

/**
 * What follows the upsert: a known customer's row is final; a new one's identity is linked to it
 * (first writer wins), and when another writer linked it first, theirs is the contact.
 */
export async function settleContact(db: Db, upsert: ContactUpsertValues, row: ContactRow): Promise<ContactRow> {
  const { fresh } = upsert.values;
  if (row.id !== fresh) return row;
  const owner = await linkIdentity(db, upsert.organizationId, upsert.key, fresh);
  if (owner === fresh) return row;
  // Another writer linked it between the upsert and the link: theirs wins, the row just made goes.
  await db.delete(contacts).where(and(eq(contacts.projectId, row.projectId), eq(contacts.id, fresh)));
  const [theirs] = await contactUpsert(db, { ...upsert.values, fresh: owner });
  return theirs!;
}

/**
 * The contact of the identity (kind, value) when the organization knows it, else a new one with id
 * `fresh`; what the platform told us replaces what we knew, and a value it did not send (null) keeps ours.
 * The query builder, so that a statement can hold it as a CTE (ingest's contact and conversation).
 */
export function contactUpsertQuery(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return db
    .insert(contacts)
    .values({
      projectId: p("projectId"),
      id: sql`coalesce((select ${contactIdentities.contactId} from ${contactIdentities}
        where ${contactIdentities.organizationId} = ${p("organizationId")} and ${contactIdentities.kind} = ${p("kind")}
          and ${contactIdentities.value} = ${p("value")}), ${p("fresh")})`,
      organizationId: p("organizationId"),
      channelId: p("channelId"),
      platform: p("platform"),
      phone: p("phone"),
      userId: p("userId"),
      parentUserId: p("parentUserId"),
      username: p("username"),
      name: p("name"),
      createdAt: p("now"),
      updatedAt: p("now"),
    })
    .onConflictDoUpdate({
      target: [contacts.projectId, contacts.id],
      set: {
        channelId: sql`excluded.channel_id`,
        phone: sql`coalesce(excluded.phone, ${contacts.phone})`,
        userId: sql`coalesce(excluded.user_id, ${contacts.userId})`,
        parentUserId: sql`coalesce(excluded.parent_user_id, ${contacts.parentUserId})`,
        username: sql`coalesce(excluded.username, ${contacts.username})`,
        name: sql`coalesce(excluded.name, ${contacts.name})`,
        updatedAt: sql`excluded.updated_at`,
      },
    })
    .returning();
}

const contactUpsert = builtOnce<ContactRow>("contact_upsert", contactUpsertQuery);

/** A customer's changed number or user id (ingest's identity-change), on the contact's row. */
export async function setContactIdentity(
  db: Db,
  contact: { projectId: string; id: string },
  identity: { phone: string | null; userId: string | null; parentUserId: string | null },
  now: Date,
): Promise<void> {
  await db
    .update(contacts)
    .set({ ...identity, updatedAt: now })
    .where(and(eq(contacts.projectId, contact.projectId), eq(contacts.id, contact.id)));
}

/** The customer's own reference for the contact, as a completed registration intent carries it. */
export async function setContactReference(db: Db, projectId: string, contactId: string, referenceId: string | null, now: Date): Promise<void> {
  await db
    .update(contacts)
    .set({ referenceId, updatedAt: now })
    .where(and(eq(contacts.projectId, projectId), eq(contacts.id, contactId)));
}

/** Records (or re-activates) the contact's opt-in for the project. */
export async function recordOptIn(db: Db, projectId: string, contactId: string, source: string, now: Date): Promise<OptInRow> {
  const [row] = await db
    .insert(optIns)
    .values({ id: newId("optIn"), projectId, contactId, status: "active", source, optedInAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [optIns.projectId, optIns.contactId], set: { status: "active", source, optedInAt: now, revokedAt: null, updatedAt: now } })
    .returning();
  return row!;
}

export async function revokeOptIn(db: Db, projectId: string, contactId: string, now: Date): Promise<void> {
  await db
    .update(optIns)
    .set({ status: "revoked", revokedAt: now, updatedAt: now })
    .where(and(eq(optIns.projectId, projectId), eq(optIns.contactId, contactId), eq(optIns.status, "active")));
}

/** The contact's opt-in record for the project, active or revoked, or null when there never was one. */
export async function optInRecord(db: Db, projectId: string, contactId: string): Promise<OptInRow | null> {
  const [row] = await db
    .select()
    .from(optIns)
    .where(and(eq(optIns.projectId, projectId), eq(optIns.contactId, contactId)));
  return row ?? null;
}

export async function activeOptIn(db: Db, projectId: string, contactId: string): Promise<OptInRow | null> {
  const [row] = await db
    .select()
    .from(optIns)
    .where(and(eq(optIns.projectId, projectId), eq(optIns.contactId, contactId), eq(optIns.status, "active")));
  return row ?? null;
}
