import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { contacts, conversations, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { Ctx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { currentMediaOf } from "@/lib/domain/media/wire";
import { builtOnce } from "@/lib/ports/db/prepared";
import { executeRows, insertRowsSql } from "@/lib/ports/db/bulk";
import { serializeConversation, serializeConversations } from "./serialize";
import { syncThreadOwner } from "./thread-sync";

export { lastCustomerMessageAt, lastCustomerMessageAtSql, MESSAGING_WINDOW_MS, messagingWindow, type MessagingWindow } from "./window";

export type ConversationRow = typeof conversations.$inferSelect;

/** The project's conversation with a contact, created on first contact. One per (project, contact). */
export async function ensureConversation(db: Db, projectId: string, contactId: string, channelId: string, now: Date): Promise<ConversationRow> {
  const [row] = await conversationUpsert(db, { id: newId("conversation", now.getTime()), projectId, contactId, channelId, now });
  return row!;
}

/** ensureConversation for many contacts in one statement (a broadcast's batch): the same upsert, the conversations returned. */
export async function ensureConversations(
  db: Db,
  projectId: string,
  contactIds: string[],
  channelId: string,
  now: Date,
): Promise<{ id: string; contactId: string }[]> {
  if (contactIds.length === 0) return [];
  const rows = contactIds.map((contactId) => ({
    id: newId("conversation", now.getTime()),
    projectId,
    contactId,
    lastChannelId: channelId,
    startedAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  // CONVERSATION_REOPENED, written out: the statement is raw SQL (insertRowsSql).
  return executeRows<{ id: string; contactId: string }>(
    db,
    insertRowsSql(
      conversations,
      rows,
      sql`on conflict (project_id, contact_id) do update set last_channel_id = excluded.last_channel_id, is_active = true, updated_at = excluded.updated_at
        returning id, contact_id as "contactId"`,
    ),
  );
}

/** What a new send or message does to an existing conversation: its channel is the latest, and it is active. */
const CONVERSATION_REOPENED = { lastChannelId: sql`excluded.last_channel_id`, isActive: true, updatedAt: sql`excluded.updated_at` };

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
      set: CONVERSATION_REOPENED,
    })
    .returning(),
);

export async function touchConversation(db: Db, conversationId: string, at: Date): Promise<void> {
  // Bound as text: postgres-js cannot bind a Date inside a raw sql fragment.
  const moved = sql`${at.toISOString()}::timestamptz`;
  await db
    .update(conversations)
    .set({ lastMessageAt: lastMessageAtMovedTo(moved), updatedAt: at })
    .where(eq(conversations.id, conversationId));
}

/** touchConversation for many at once (a broadcast's batch). */
export async function touchConversations(db: Db, conversationIds: string[], at: Date): Promise<void> {
  if (conversationIds.length === 0) return;
  const moved = sql`${at.toISOString()}::timestamptz`;
  await db
    .update(conversations)
    .set({ lastMessageAt: lastMessageAtMovedTo(moved), updatedAt: at })
    .where(inArray(conversations.id, conversationIds));
}

type MessageInsert = typeof messages.$inferInsert;
type MessageColumn = keyof MessageInsert;

/** Every stored message sets these (lib/domain/messages/rows.ts messageRow). */
const MESSAGE_COLUMNS = [
  "id",
  "projectId",
  "conversationId",
  "contactId",
  "channelId",
  "direction",
  "type",
  "status",
  "content",
  "body",
  "timestamp",
  "createdAt",
  "updatedAt",
] as const;
/** An inbound message adds the provider's id and time, the message it answers and its media. */
const INBOUND_COLUMNS = [...MESSAGE_COLUMNS, "platformMessageId", "replyTo", "media", "providerTimestamp"] as const;
/** A send adds the address it goes to, the message it quotes and its idempotency key. */
const OUTBOUND_COLUMNS = [...MESSAGE_COLUMNS, "recipient", "replyTo", "idempotencyKey"] as const;

/** created_at and updated_at are the only listed columns with a default other than NULL: the row sets them. */
type Stamped = { createdAt: Date; updatedAt: Date };
export type InboundMessageInsert = Pick<MessageInsert, (typeof INBOUND_COLUMNS)[number]> & Stamped;
export type OutboundMessageInsert = Pick<MessageInsert, (typeof OUTBOUND_COLUMNS)[number]> & Stamped;

/**
 * Stores an inbound message and moves its conversation's last_message_at, in one statement. A message
 * the provider sent before (same provider id on the channel) is left alone and the conversation
 * untouched: the result is false then.
 */
export async function insertInboundMessageTouchingConversation(tx: Db, row: InboundMessageInsert, at: Date): Promise<boolean> {
  return (await insertInboundTouching(tx, row, at)).length > 0;
}

/** Stores a send's message and moves its conversation's last_message_at, in one statement. */
export async function insertOutboundMessageTouchingConversation(tx: Db, row: OutboundMessageInsert, at: Date): Promise<void> {
  await insertOutboundTouching(tx, row, at);
}

/**
 * Send and ingest run these in every transaction, and building one was 6 % of the web's CPU per
 * POST /messages: each is built once (builtOnce), over a fixed column list.
 */
const insertInboundTouching = insertTouchingStatement("message_insert_inbound_touching_conversation", INBOUND_COLUMNS, { skipDuplicate: true });
const insertOutboundTouching = insertTouchingStatement("message_insert_outbound_touching_conversation", OUTBOUND_COLUMNS, { skipDuplicate: false });

function insertTouchingStatement(name: string, columns: readonly MessageColumn[], options: { skipDuplicate: boolean }) {
  const statement = builtOnce<{ id: string }>(name, (db) => {
    const placeholders = Object.fromEntries(
      columns.map((column) => [column, sql`${sql.param(sql.placeholder(column), nullAsSqlNull(messages[column]))}`]),
    ) as unknown as MessageInsert;
    const insert = db.insert(messages).values(placeholders);
    const inserted = db.$with("inserted").as((options.skipDuplicate ? insert.onConflictDoNothing() : insert).returning({ id: messages.id }));
    const at = sql`${sql.placeholder("at")}::timestamptz`;
    return db
      .with(inserted)
      .update(conversations)
      .set({ lastMessageAt: lastMessageAtMovedTo(at), updatedAt: at })
      .where(and(eq(conversations.id, sql.placeholder("conversationId")), sql`exists (select 1 from ${inserted})`))
      .returning({ id: conversations.id });
  });
  const known = new Set<string>(columns);
  return (tx: Db, row: Partial<MessageInsert>, at: Date) => {
    // A column outside the list would be dropped without a word: a caller that needs one needs its own statement.
    for (const [column, value] of Object.entries(row))
      if (value !== undefined && !known.has(column)) throw new Error(`${name}: the statement does not set messages.${column}`);
    const values: Record<string, unknown> = { at: at.toISOString() };
    for (const column of columns) values[column] = row[column];
    return statement(tx, values);
  };
}

/**
 * The column's own encoder, except that a null (or a column the row leaves unset) is bound as SQL NULL:
 * the jsonb encoder would store JSON null, the timestamp one would fail on it. An unset column's default
 * is NULL anyway (Stamped), so binding NULL stores the row an insert without the column would.
 */
function nullAsSqlNull(column: { mapToDriverValue(value: unknown): unknown }) {
  return { mapToDriverValue: (value: unknown) => (value === null || value === undefined ? null : column.mapToDriverValue(value)) };
}

/** last_message_at moved to `at`, never back (messages can be stored out of order). */
function lastMessageAtMovedTo(at: SQL) {
  return sql`greatest(coalesce(${conversations.lastMessageAt}, ${at}), ${at})`;
}

export async function getConversationRowOrThrow(ctx: Ctx, id: string): Promise<ConversationRow> {
  const [row] = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.projectId, ctx.project.id), eq(conversations.id, id)));
  if (!row) throw notFound("conversation", id);
  return row;
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
  const result = await paginate(
    ctx.db,
    conversations,
    eq(conversations.projectId, ctx.project.id),
    { limit, starting_after },
    conversationFilterSql(ctx.project.id, filter),
  );
  return { data: await serializeConversations(ctx, result.data), has_more: result.has_more };
}

/**
 * The filters as one condition over `conversations`, qualified by hand (see lastCustomerMessageAtSql, window.ts).
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
  const current = await currentMediaOf(ctx.db, ctx.project.id, result.data, ctx.now, ctx.settings.publicUrl);
  return { data: result.data.map((row) => ({ ...serializeMessage(row), media: current.get(row.id) ?? row.media ?? null })), has_more: result.has_more };
}

/**
 * Turns the human handoff on (HUMAN_ACTIVE) or off (AI_ACTIVE). Turning it on again while it is on
 * keeps handoff_at (when it started) and the reason, unless a new reason is given. Under AGENT routing
 * the thread's owner moves with it (thread-sync.ts).
 */
export async function setHandoff(ctx: Ctx, id: string, input: { enabled: boolean; reason?: string | null }) {
  // One transaction (a savepoint inside a caller's): the thread's owner moves with the handoff (thread-sync.ts).
  return ctx.db.transaction(async (tx) => writeHandoff({ ...ctx, db: tx }, id, input));
}

async function writeHandoff(ctx: Ctx, id: string, input: { enabled: boolean; reason?: string | null }) {
  const conversation = await getConversationRowOrThrow(ctx, id);
  const alreadyOn = conversation.handoffStatus === "HUMAN_ACTIVE";
  await syncThreadOwner(ctx, conversation, input);
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
