// A message and its conversation's last_message_at written in one statement: the hot path of ingest and send.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { conversations, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { builtOnce, columnPlaceholders, perCte } from "@/lib/ports/db/prepared";
import { statementWithJob, type JobInsert } from "@/lib/ports/queue/job-insert";
import { lastMessageAtMovedTo } from "./touch";

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

/** An inbound message adds the provider's id and time, the message it answers, its media and the routing facts it arrived under. */
const INBOUND_COLUMNS = [...MESSAGE_COLUMNS, "platformMessageId", "replyTo", "media", "providerTimestamp", "arrivalRoutingMode", "arrivalHandoff"] as const;

/** A send adds the address it goes to, the message it quotes and its idempotency key. */
const OUTBOUND_COLUMNS = [...MESSAGE_COLUMNS, "recipient", "replyTo", "idempotencyKey"] as const;

/** created_at and updated_at are the only listed columns with a default other than NULL: the row sets them. */
type Stamped = { createdAt: Date; updatedAt: Date };

export type InboundMessageInsert = Pick<MessageInsert, (typeof INBOUND_COLUMNS)[number]> & Stamped;

export type OutboundMessageInsert = Pick<MessageInsert, (typeof OUTBOUND_COLUMNS)[number]> & Stamped;

/**
 * Stores an inbound message, unless the provider sent it before (same provider id on the channel): the
 * result is false then. Its conversation's last_message_at moved with the conversation's own upsert
 * (ingest's contact and conversation, one write of the row instead of two).
 */
export async function insertInboundMessage(tx: Db, row: InboundMessageInsert): Promise<boolean> {
  return (await insertInbound(tx, inboundMessageValues(row))).length > 0;
}

/** The inbound insert's placeholder values, for a statement that holds it as its "inserted" CTE (inboundMessageInsertSql). */
export function inboundMessageValues(row: InboundMessageInsert): Record<string, unknown> {
  return rowValues("message_insert_inbound", INBOUND_COLUMNS, row);
}

/** The inbound insert (a provider's repeat skipped), RETURNING the new id: for a statement that holds it as a CTE. */
export function inboundMessageInsertSql(db: Db): SQL {
  return inboundInsert(db).getSQL();
}

const inboundInsert = (db: Db) =>
  db
    .insert(messages)
    .values(columnPlaceholders(messages, INBOUND_COLUMNS) as unknown as MessageInsert)
    .onConflictDoNothing()
    .returning({ id: messages.id });

const insertInbound = builtOnce<{ id: string }>("message_insert_inbound", inboundInsert);

/** Stores a send's message and moves its conversation's last_message_at, in one statement. */
export async function insertOutboundMessageTouchingConversation(tx: Db, row: OutboundMessageInsert, at: Date): Promise<void> {
  await insertOutboundTouching(tx, row, at);
}

/**
 * A send's message, its conversation's last_message_at and its job, in ONE statement and no
 * transaction (lib/ports/queue/job-insert.ts): the message exists if and only if its job does.
 * `job.payload` is the queue's jobPayload.
 */
export async function insertOutboundMessageWithJob(
  db: Db,
  row: OutboundMessageInsert,
  at: Date,
  job: { insert: JobInsert; payload: string },
  /** The request's answer stored in the same statement (AnswerRecord): its CTE and its placeholders' values. */
  answer: { cte: SQL; values: { recordId: string; recordBody: string } } | null = null,
): Promise<void> {
  const values = { ...rowValues("message_insert_outbound_with_job", OUTBOUND_COLUMNS, row, at), job: job.payload };
  if (!answer) return void (await outboundWithJob(db, job.insert, values));
  await outboundWithJobAnswered(answer.cte)(db, job.insert, { ...values, ...answer.values });
}

function outboundWithJobStatement(name: string, answerCte: SQL | null) {
  return statementWithJob(
    name,
    (job, db) => {
      const { insert, touch } = insertAndTouch(db, OUTBOUND_COLUMNS);
      const payload = sql`${sql.placeholder("job")}`;
      return sql`with "inserted" as (${insert.getSQL()}), "touched" as (${touch.getSQL()})${job.ctes("job", payload)}${answerCte ?? sql``} select ${job.notifiedColumn("job")} as "notified"`;
    },
    // A send a job makes (an automation's reply, an agent's) goes to the provider from this worker
    // once written, when provider.send has a free slot here; a web process's send wakes the workers.
    { runHere: true },
  );
}

const outboundWithJob = outboundWithJobStatement("message_insert_outbound_with_job", null);

/** One statement per answer CTE (there is one: lib/api/idempotency.ts's). */
const outboundWithJobAnswered = perCte((cte) => outboundWithJobStatement("message_insert_outbound_with_job_answered", cte));

/** A statement's placeholder values: its columns of the row, and `at` when it touches the conversation. */
function rowValues(name: string, columns: readonly MessageColumn[], row: Partial<MessageInsert>, at?: Date): Record<string, unknown> {
  // A column outside the list would be dropped without a word: a caller that needs one needs its own statement.
  for (const [column, value] of Object.entries(row))
    if (value !== undefined && !(columns as readonly string[]).includes(column)) throw new Error(`${name}: the statement does not set messages.${column}`);
  const values: Record<string, unknown> = at ? { at: at.toISOString() } : {};
  for (const column of columns) values[column] = row[column];
  return values;
}

/**
 * A send to a new recipient runs it in its transaction, and building it was 6 % of the web's CPU per
 * POST /messages: it is built once (builtOnce), over a fixed column list.
 */
const insertOutboundTouching = insertTouchingStatement("message_insert_outbound_touching_conversation", OUTBOUND_COLUMNS);

function insertTouchingStatement(name: string, columns: readonly MessageColumn[]) {
  const statement = builtOnce<{ id: string }>(name, (db) => {
    const { inserted, touch } = insertAndTouch(db, columns);
    return db.with(inserted).update(conversations).set(touch.set).where(touch.where).returning({ id: conversations.id });
  });
  return (tx: Db, row: Partial<MessageInsert>, at: Date) => statement(tx, rowValues(name, columns, row, at));
}

/** The message insert over placeholders (one per column, `at`, `conversationId`) and the conversation update that reads it. */
function insertAndTouch(db: Db, columns: readonly MessageColumn[]) {
  const insert = db
    .insert(messages)
    .values(columnPlaceholders(messages, columns) as unknown as MessageInsert)
    .returning({ id: messages.id });
  const inserted = db.$with("inserted").as(insert);
  const at = sql`${sql.placeholder("at")}::timestamptz`;
  const set = { lastMessageAt: lastMessageAtMovedTo(at), updatedAt: at };
  const where = and(eq(conversations.id, sql.placeholder("conversationId")), sql`exists (select 1 from ${inserted})`);
  const touch = { set, where, getSQL: () => db.update(conversations).set(set).where(where).returning({ id: conversations.id }).getSQL() };
  return { insert, inserted, touch };
}
