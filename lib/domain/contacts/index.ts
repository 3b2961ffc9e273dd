import { and, eq, inArray } from "drizzle-orm";
import { channels, contacts, optIns } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { getChannelRowOrThrow, serializeChannels } from "@/lib/domain/channels";
import { getSandboxChannel, SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { serializeChannel } from "@/lib/domain/channels/serialize";
import type { Db } from "@/lib/ports/db/types";
import { findContactId, optInRecord, recordOptIn, revokeOptIn, upsertContact, type ContactRow, type OptInRow } from "./identity";

export async function getContactRowOrThrow(ctx: Ctx, id: string): Promise<ContactRow> {
  const [row] = await ctx.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, id)));
  if (!row) throw notFound("contact", id);
  return row;
}

async function serializeContacts(ctx: Ctx, rows: ContactRow[]) {
  if (!rows.length) return [];
  const channelIds = [...new Set(rows.map((r) => r.channelId))];
  const channelRows = await ctx.db.select().from(channels).where(inArray(channels.id, channelIds));
  const optInRows = await ctx.db
    .select()
    .from(optIns)
    .where(
      and(
        eq(optIns.projectId, ctx.project.id),
        inArray(
          optIns.contactId,
          rows.map((r) => r.id),
        ),
      ),
    );
  const channelById = new Map((await serializeChannels(ctx, channelRows)).map((c) => [c.id, c]));
  const optInByContact = new Map(optInRows.map((o) => [o.contactId, o]));
  return rows.map((row) => serializeContact(row, channelById.get(row.channelId)!, optInByContact.get(row.id) ?? null));
}

function serializeContact(row: ContactRow, channel: ReturnType<typeof serializeChannel>, optIn: OptInRow | null) {
  return {
    object: "contact" as const,
    id: row.id,
    contact_id: row.id,
    phone: row.phone,
    user_id: row.userId,
    username: row.username,
    name: row.name,
    preferred_language: row.preferredLanguage,
    project_id: row.projectId,
    channel_id: row.channelId,
    channel,
    reference_id: row.referenceId,
    status: row.status,
    opt_in: optIn
      ? { status: optIn.status, source: optIn.source, opted_in_at: optIn.optedInAt.toISOString(), revoked_at: optIn.revokedAt?.toISOString() ?? null }
      : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function getContact(ctx: Ctx, id: string) {
  const [contact] = await serializeContacts(ctx, [await getContactRowOrThrow(ctx, id)]);
  return contact!;
}

export async function listContacts(ctx: Ctx, page: PageParams) {
  const result = await paginate(ctx.db, contacts, eq(contacts.projectId, ctx.project.id), page);
  return { data: await serializeContacts(ctx, result.data), has_more: result.has_more };
}

export interface ContactCreateInput {
  phone?: string;
  user_id?: string;
  channel_id?: string;
  reference_id?: string | null;
  preferred_language?: string | null;
  opt_in?: boolean;
}

/**
 * Enrolls a contact (idempotent per phone / user id): creates it or updates the given fields. The
 * contact keeps its channel unless channel_id is given. opt_in: true records an opt-in unless one is
 * active already (its opted_in_at and source are kept); false revokes it; omitted (default true)
 * records one only when the contact has no opt-in record in this project yet.
 */
export async function createContact(ctx: Ctx, input: ContactCreateInput) {
  const explicit = input.channel_id ? await getChannelRowOrThrow(ctx, input.channel_id) : null;
  let channel = explicit ?? (await effectiveChannel(ctx));
  if (input.phone && !explicit) {
    // Re-enrolling a known number without channel_id leaves the contact on its channel.
    const knownId = await findContactId(ctx.db, ctx.org.id, { platform: channel.platform, phone: input.phone });
    const [known] = knownId
      ? await ctx.db
          .select()
          .from(contacts)
          .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, knownId)))
      : [];
    const [current] = known ? await ctx.db.select().from(channels).where(eq(channels.id, known.channelId)) : [];
    if (current) channel = current;
  }
  if (input.user_id && !input.phone && channel.id === SANDBOX_CHANNEL_ID) {
    throw new SvcError("invalid_request", "On the shared sandbox a contact is identified by phone.", {
      issues: { phone: ["Required on the sandbox channel."] },
    });
  }
  if (input.phone && (channel.platform === "PLATFORM_B" || channel.platform === "PLATFORM_C")) {
    throw new SvcError(
      "invalid_request",
      `${channel.platform} identifies contacts by their platform user id, not by phone: give user_id with this channel_id.`,
      {
        issues: { phone: [`Not usable on a ${channel.platform} channel; use user_id.`] },
      },
    );
  }
  const row = await ctx.db.transaction(async (tx) => {
    const contact = await upsertContact(tx, {
      projectId: ctx.project.id,
      organizationId: ctx.org.id,
      channelId: channel.id,
      platform: channel.platform,
      phone: input.phone ?? null,
      userId: input.user_id ?? null,
      now: ctx.now,
    });
    const changes: Partial<ContactRow> = {};
    if (input.reference_id !== undefined) changes.referenceId = input.reference_id;
    if (input.preferred_language !== undefined) changes.preferredLanguage = input.preferred_language;
    if (Object.keys(changes).length)
      await tx
        .update(contacts)
        .set({ ...changes, updatedAt: ctx.now })
        .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, contact.id)));
    await applyOptIn(tx, ctx, contact.id, input.opt_in, true);
    return contact;
  });
  return getContact(ctx, row.id);
}

/**
 * opt_in true: an active record (created or re-activated; an active one is left as it is); false:
 * revoked; undefined: `byDefault` records one only when the contact never had a record here.
 */
async function applyOptIn(db: Db, ctx: Ctx, contactId: string, optIn: boolean | undefined, byDefault: boolean) {
  if (optIn === false) return revokeOptIn(db, ctx.project.id, contactId, ctx.now);
  const record = await optInRecord(db, ctx.project.id, contactId);
  if (optIn === true ? record?.status !== "active" : byDefault && !record) await recordOptIn(db, ctx.project.id, contactId, "api", ctx.now);
}

export interface ContactUpdateInput {
  reference_id?: string | null;
  preferred_language?: string | null;
  opt_in?: boolean;
}

export async function updateContact(ctx: Ctx, id: string, input: ContactUpdateInput) {
  const contact = await getContactRowOrThrow(ctx, id);
  await ctx.db.transaction(async (tx) => {
    const changes: Partial<ContactRow> = {};
    if (input.reference_id !== undefined) changes.referenceId = input.reference_id;
    if (input.preferred_language !== undefined) changes.preferredLanguage = input.preferred_language;
    await tx
      .update(contacts)
      .set({ ...changes, updatedAt: ctx.now })
      .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, contact.id)));
    await applyOptIn(tx, ctx, contact.id, input.opt_in, false);
  });
  return getContact(ctx, id);
}

/** The project's own connected channel, else the shared sandbox. */
async function effectiveChannel(ctx: Ctx) {
  if (ctx.project.channelId) {
    const [own] = await ctx.db.select().from(channels).where(eq(channels.id, ctx.project.channelId));
    if (own && own.status === "connected") return own;
  }
  return getSandboxChannel(ctx.db);
}
