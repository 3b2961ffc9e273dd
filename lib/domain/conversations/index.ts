import { and, eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import { contacts, conversations, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { Ctx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { currentMediaOf } from "@/lib/domain/media/wire";
import { env } from "@/lib/config";
import { builtOnce } from "@/lib/ports/db/prepared";

export type ConversationRow = typeof conversations.$inferSelect;

/** 24 hours since the customer's last message on the channel (provider timestamp). */
export const MESSAGING_WINDOW_MS = 24 * 3600_000;

/** The project's conversation with a contact, created on first contact. One per (project, contact). */
export async function ensureConversation(db: Db, projectId: string, contactId: string, channelId: string, now: Date): Promise<ConversationRow> {
  const [row] = await conversationUpsert(db, { id: newId("conversation", now.getTime()), projectId, contactId, channelId, now });
  return row!;
}

/** Every inbound message runs it in the ingest transaction: built once (builtOnce). */
const conversationUpsert = builtOnce<ConversationRow>("conversation_upsert", (db) =>
  db
    .insert(conversations)
    .values({
      id: sql.placeholder("id"),
      projectId: sql.placeholder("projectId"),
      contactId: sql.placeholder("contactId"),
      lastChannelId: sql.placeholder("channelId"),
      startedAt: sql.placeholder("now"),
      createdAt: sql.placeholder("now"),
      updatedAt: sql.placeholder("now"),
    })
    .onConflictDoUpdate({
      target: [conversations.projectId, conversations.contactId],
      set: { lastChannelId: sql`excluded.last_channel_id`, isActive: true, updatedAt: sql`excluded.updated_at` },
    })
    .returning(),
);

export async function touchConversation(db: Db, conversationId: string, at: Date): Promise<void> {
  // Bound as text: postgres-js cannot bind a Date inside a raw sql fragment.
  const moved = sql`${at.toISOString()}::timestamptz`;
  await db.update(conversations).set({ lastMessageAt: lastMessageAtMovedTo(moved), updatedAt: at }).where(eq(conversations.id, conversationId));
}

/**
 * Stores a message and moves its conversation's last_message_at in one statement. With `skipDuplicate`
 * a message the provider sent before (same provider id) is left alone and the conversation untouched:
 * the result is false then.
 */
export async function insertMessageTouchingConversation(tx: Db, values: typeof messages.$inferInsert, at: Date, options: { skipDuplicate?: boolean } = {}): Promise<boolean> {
  const set = (Object.keys(values) as MessageColumn[]).filter((column) => values[column] !== undefined).sort();
  // A null is part of the shape (SQL NULL in the text): a column's encoder would turn it into JSON null or fail on it.
  const shape = `${options.skipDuplicate ? "skip" : "insert"}:${set.map((column) => (values[column] === null ? `${column}=null` : column)).join(",")}`;
  let statement = insertTouchingStatements.get(shape);
  if (!statement) {
    const nulls = set.filter((column) => values[column] === null);
    const bound = set.filter((column) => values[column] !== null);
    insertTouchingStatements.set(shape, (statement = insertTouchingStatement(bound, nulls, options.skipDuplicate === true, insertTouchingStatements.size)));
  }
  const touched = await statement(tx, { ...values, at: at.toISOString() });
  return touched.length > 0;
}

/**
 * One statement per shape (the columns a caller sets, duplicate handling): send and ingest run it in
 * every transaction, and building it was 6 % of the web's CPU per POST /messages. The shapes are the
 * few call sites', so the map stays small.
 */
const insertTouchingStatements = new Map<string, ReturnType<typeof insertTouchingStatement>>();
type MessageColumn = keyof typeof messages.$inferInsert;
function insertTouchingStatement(bound: MessageColumn[], nulls: MessageColumn[], skipDuplicate: boolean, index: number) {
  return builtOnce<{ id: string }>(`message_insert_touching_conversation_${index}`, (db) => {
    const placeholders = Object.fromEntries([...bound.map((column) => [column, sql.placeholder(column)]), ...nulls.map((column) => [column, null])]) as unknown as typeof messages.$inferInsert;
    const insert = db.insert(messages).values(placeholders);
    const inserted = db.$with("inserted").as((skipDuplicate ? insert.onConflictDoNothing() : insert).returning({ id: messages.id }));
    const at = sql`${sql.placeholder("at")}::timestamptz`;
    return db
      .with(inserted)
      .update(conversations)
      .set({ lastMessageAt: lastMessageAtMovedTo(at), updatedAt: at })
      .where(and(eq(conversations.id, sql.placeholder("conversationId")), sql`exists (select 1 from ${inserted})`))
      .returning({ id: conversations.id });
  });
}

/** last_message_at moved to `at`, never back (messages can be stored out of order). */
function lastMessageAtMovedTo(at: SQL) {
  return sql`greatest(coalesce(${conversations.lastMessageAt}, ${at}), ${at})`;
}

/** When the customer last wrote on this channel (provider time), or null. */
export async function lastCustomerMessageAt(db: Db, conversationId: string, channelId: string): Promise<Date | null> {
  const [row] = await db.select({ at: lastCustomerMessageAtSql(channelId) }).from(conversations).where(eq(conversations.id, conversationId));
  return row?.at ?? null;
}

/**
 * The conversation's last customer message on a channel, as a column of any select over `conversations`.
 * Qualified by hand: in a one-table select drizzle leaves columns bare, and a bare "id" in the
 * subquery would be the message's.
 */
export function lastCustomerMessageAtSql(channelId: string | Placeholder) {
  return sql<Date | null>`(select max(m.provider_timestamp) from ${messages} m where m.conversation_id = ${conversations}.id and m.channel_id = ${channelId} and m.direction = 'inbound')`.mapWith(
    (v) => (v ? new Date(v) : null),
  );
}

export async function getConversationRowOrThrow(ctx: Ctx, id: string): Promise<ConversationRow> {
  const [row] = await ctx.db.select().from(conversations).where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.id, id)));
  if (!row) throw notFound("conversation", id);
  return row;
}

export async function serializeConversation(ctx: Ctx, row: ConversationRow) {
  const [conversation] = await serializeConversations(ctx, [row]);
  return conversation!;
}

/** Conversation wire objects; phone, name and reference_id come from the project's contact. */
export async function serializeConversations(ctx: Ctx, rows: ConversationRow[]) {
  const ids = [...new Set(rows.map((r) => r.contactId))];
  const contactRows = ids.length ? await ctx.db.select().from(contacts).where(and(eq(contacts.projectId, ctx.project.id), inArray(contacts.id, ids))) : [];
  const byId = new Map(contactRows.map((c) => [c.id, c]));
  return rows.map((row) => {
    // Without its contact row (erased or removed) a conversation still serializes, with null contact
    // fields: one missing row must not turn the whole list into a 500.
    const contact = byId.get(row.contactId);
    return {
      object: "conversation" as const,
      id: row.id,
      conversation_id: row.id,
      contact_id: row.contactId,
      phone: contact?.phone ?? null,
      name: contact?.name ?? null,
      reference_id: contact?.referenceId ?? null,
      last_channel_id: row.lastChannelId,
      is_active: row.isActive,
      handoff: { status: row.handoffStatus, reason: row.handoffReason, handoff_at: row.handoffAt?.toISOString() ?? null },
      started_at: row.startedAt.toISOString(),
      last_message_at: row.lastMessageAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  });
}

export async function getConversation(ctx: Ctx, id: string) {
  return serializeConversation(ctx, await getConversationRowOrThrow(ctx, id));
}

export interface ConversationFilter {
  /** Substring of the contact's name or phone, case-insensitive; LIKE wildcards match themselves. */
  q?: string | undefined;
  channel_id?: string | undefined;
  contact_id?: string | undefined;
  handoff?: ConversationRow["handoffStatus"] | undefined;
}

/**
 * The project's conversations, newest first, narrowed by the filters. Every filter is a condition on
 * the project's own rows, so another project's channel or contact id simply matches nothing (an
 * empty list, as Stripe lists do for filter ids), never a 404 that would confirm the id exists.
 */
export async function listConversations(ctx: Ctx, input: PageParams & ConversationFilter) {
  const { limit, starting_after, ...filter } = input;
  const result = await paginate(ctx.db, conversations, eq(conversations.projectId, ctx.project.id), { limit, starting_after }, conversationFilterSql(ctx.project.id, filter));
  return { data: await serializeConversations(ctx, result.data), has_more: result.has_more };
}

/**
 * The filters as one condition over `conversations`, qualified by hand (see lastCustomerMessageAtSql).
 * channel_id matches a conversation that has a message on the channel or whose last channel it is
 * (a conversation opened by a send has no message yet), through the messages_window index.
 */
function conversationFilterSql(projectId: string, filter: ConversationFilter): SQL | undefined {
  const q = filter.q?.trim();
  return and(
    filter.contact_id !== undefined ? eq(conversations.contactId, filter.contact_id) : undefined,
    filter.handoff !== undefined ? eq(conversations.handoffStatus, filter.handoff) : undefined,
    filter.channel_id !== undefined
      ? sql`(${conversations}.last_channel_id = ${filter.channel_id} or exists (select 1 from ${messages} m where m.conversation_id = ${conversations}.id and m.channel_id = ${filter.channel_id}))`
      : undefined,
    q ? contactMatches(projectId, q) : undefined,
  );
}

/** The conversation's contact (in this project) has `q` in its name or phone; see phoneDigitsOf. */
function contactMatches(projectId: string, q: string): SQL {
  const pattern = `%${escapeLike(q)}%`;
  const digits = phoneDigitsOf(q);
  const byDigits = digits ? sql` or c.phone ilike ${`%${digits}%`}` : sql``;
  return sql`exists (select 1 from ${contacts} c where c.project_id = ${projectId} and c.id = ${conversations}.contact_id and (c.name ilike ${pattern} escape '\\' or c.phone ilike ${pattern} escape '\\'${byDigits}))`;
}

/** `%`, `_` and the escape character itself, escaped so they match literally in a LIKE pattern. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A query typed as a phone number (`+1 (415) 555-0100`, `415-555`): its digits, which is how numbers
 * are stored (E.164), so spaces and dashes do not stop a match. Null for anything else.
 */
function phoneDigitsOf(q: string): string | null {
  if (!/^[\d\s+().-]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, "");
  return digits && digits !== q ? digits : null;
}

export async function listConversationMessages(ctx: Ctx, id: string, page: PageParams) {
  const conversation = await getConversationRowOrThrow(ctx, id);
  const result = await paginate(ctx.db, messages, and(eq(messages.projectId, ctx.project.id), eq(messages.conversationId, conversation.id)), page);
  const current = await currentMediaOf(ctx.db, ctx.project.id, result.data, ctx.now, env().publicUrl);
  return { data: result.data.map((row) => ({ ...serializeMessage(row), media: current.get(row.id) ?? row.media ?? null })), has_more: result.has_more };
}

/**
 * Turns the human handoff on (HUMAN_ACTIVE) or off (AI_ACTIVE). Turning it on again while it is on
 * keeps handoff_at (when it started) and the reason, unless a new reason is given.
 */
export async function setHandoff(ctx: Ctx, id: string, input: { enabled: boolean; reason?: string | null }) {
  const conversation = await getConversationRowOrThrow(ctx, id);
  const alreadyOn = conversation.handoffStatus === "HUMAN_ACTIVE";
  const [row] = await ctx.db
    .update(conversations)
    .set(
      input.enabled
        ? {
            handoffStatus: "HUMAN_ACTIVE",
            handoffReason: input.reason !== undefined ? input.reason : alreadyOn ? conversation.handoffReason : null,
            handoffAt: alreadyOn && conversation.handoffAt ? conversation.handoffAt : ctx.now,
            updatedAt: ctx.now,
          }
        : { handoffStatus: "AI_ACTIVE", handoffReason: null, handoffAt: null, updatedAt: ctx.now },
    )
    .where(eq(conversations.id, conversation.id))
    .returning();
  return serializeConversation(ctx, row!);
}
