import { and, eq, inArray } from "drizzle-orm";
import { channels, contacts, optIns } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import { getSandboxChannel, SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { serializeChannel } from "@/lib/domain/channels/serialize";
import { recordOptIn, revokeOptIn, upsertContact, type ContactRow, type OptInRow } from "./identity";

export async function getContactRowOrThrow(ctx: Ctx, id: string): Promise<ContactRow> {
  const [row] = await ctx.db.select().from(contacts).where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, id)));
  if (!row) throw notFound("contact", id);
  return row;
}

export async function serializeContacts(ctx: Ctx, rows: ContactRow[]) {
  if (!rows.length) return [];
  const channelIds = [...new Set(rows.map((r) => r.channelId))];
  const channelRows = await ctx.db.select().from(channels).where(inArray(channels.id, channelIds));
  const optInRows = await ctx.db.select().from(optIns).where(and(eq(optIns.projectId, ctx.project.id), inArray(optIns.contactId, rows.map((r) => r.id))));
  const channelById = new Map(channelRows.map((c) => [c.id, c]));
  const optInByContact = new Map(optInRows.map((o) => [o.contactId, o]));
  return rows.map((row) => serializeContact(ctx, row, channelById.get(row.channelId)!, optInByContact.get(row.id) ?? null));
}

function serializeContact(ctx: Ctx, row: ContactRow, channel: Parameters<typeof serializeChannel>[0], optIn: OptInRow | null) {
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
    channel: serializeChannel(channel, ctx.project),
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

/** Enrolls a contact (idempotent per phone / user id): creates it or updates the given fields. */
export async function createContact(ctx: Ctx, input: ContactCreateInput) {
  const channel = input.channel_id ? await getChannelRowOrThrow(ctx, input.channel_id) : await effectiveChannel(ctx);
  if (input.user_id && !input.phone && channel.platform === "PLATFORM_A" && channel.id === SANDBOX_CHANNEL_ID) {
    throw new SvcError("invalid_request", "On the shared sandbox a contact is identified by phone.", { issues: { phone: ["Required on the sandbox channel."] } });
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
    if (Object.keys(changes).length) await tx.update(contacts).set({ ...changes, updatedAt: ctx.now }).where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, contact.id)));
    if (input.opt_in ?? true) await recordOptIn(tx, ctx.project.id, contact.id, "api", ctx.now);
    return contact;
  });
  return getContact(ctx, row.id);
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
    await tx.update(contacts).set({ ...changes, updatedAt: ctx.now }).where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, contact.id)));
    if (input.opt_in === true) await recordOptIn(tx, ctx.project.id, contact.id, "api", ctx.now);
    if (input.opt_in === false) await revokeOptIn(tx, ctx.project.id, contact.id, ctx.now);
  });
  return getContact(ctx, id);
}

/** The project's own connected channel, else the shared sandbox. */
export async function effectiveChannel(ctx: Ctx) {
  if (ctx.project.channelId) {
    const [own] = await ctx.db.select().from(channels).where(eq(channels.id, ctx.project.channelId));
    if (own && own.status === "connected") return own;
  }
  return getSandboxChannel(ctx.db);
}
