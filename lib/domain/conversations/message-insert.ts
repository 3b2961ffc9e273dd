// A message and its conversation's last_message_at written in one statement: the hot path of ingest and send.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { conversations, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { builtOnce, builtOnceSql, columnPlaceholders } from "@/lib/ports/db/prepared";
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
 * Stores an inbound message and moves its conversation's last_message_at, in one statement. A message
 * the provider sent before (same provider id on the channel) is left alone and the conversation
 * untouched: the result is false then.
 */
export async function insertInboundMessageTouchingConversation(
  tx: Db,
  row: InboundMessageInsert,
  at: Date,
  /** A caller's write in the same statement (SystemCtx.withStoredMessage): a CTE that may read "inserted". */
  alongside: { cte: SQL; values: Record<string, unknown> } | null = null,
): Promise<boolean> {
  if (!alongside) return (await insertInboundTouching(tx, row, at)).length > 0;
  const values = rowValues("message_insert_inbound_touching_alongside", INBOUND_COLUMNS, row, at);
  return (await inboundTouchingAlongside(alongside.cte)(tx, { ...values, ...alongside.values })).length > 0;
}

/** One statement per alongside CTE (there is one: the ingest's envelope mark). */
const inboundTouchingAlongside = perCte((cte) =>
  builtOnceSql<{ id: string }>("message_insert_inbound_touching_alongside", (db) => {
    const { insert, touch } = insertAndTouch(db, INBOUND_COLUMNS, { skipDuplicate: true });
    return sql`with "inserted" as (${insert.getSQL()})${cte} ${touch.getSQL()}`;
  }),
);

/** A statement built once for each CTE a caller adds (each such CTE is a module constant, so there are few). */
function perCte<T>(build: (cte: SQL) => T): (cte: SQL) => T {
  const built = new WeakMap<SQL, T>();
  return (cte) => {
    let statement = built.get(cte);
    if (!statement) built.set(cte, (statement = build(cte)));
    return statement;
  };
}

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
  return statementWithJob(name, (job, db) => {
    const { insert, touch } = insertAndTouch(db, OUTBOUND_COLUMNS, { skipDuplicate: false });
    const payload = sql`${sql.placeholder("job")}`;
    return sql`with "inserted" as (${insert.getSQL()}), "touched" as (${touch.getSQL()})${job.ctes("job", payload)}${answerCte ?? sql``} select ${job.notifiedColumn("job")} as "notified"`;
  });
}

const outboundWithJob = outboundWithJobStatement("message_insert_outbound_with_job", null);

/** One statement per answer CTE (there is one: lib/api/idempotency.ts's). */
const outboundWithJobAnswered = perCte((cte) => outboundWithJobStatement("message_insert_outbound_with_job_answered", cte));

/** A statement's placeholder values: its columns of the row, and `at`. */
function rowValues(name: string, columns: readonly MessageColumn[], row: Partial<MessageInsert>, at: Date): Record<string, unknown> {
  // A column outside the list would be dropped without a word: a caller that needs one needs its own statement.
  for (const [column, value] of Object.entries(row))
    if (value !== undefined && !(columns as readonly string[]).includes(column)) throw new Error(`${name}: the statement does not set messages.${column}`);
  const values: Record<string, unknown> = { at: at.toISOString() };
  for (const column of columns) values[column] = row[column];
  return values;
}

/**
 * Send and ingest run these in every transaction, and building one was 6 % of the web's CPU per
 * POST /messages: each is built once (builtOnce), over a fixed column list.
 */
const insertInboundTouching = insertTouchingStatement("message_insert_inbound_touching_conversation", INBOUND_COLUMNS, { skipDuplicate: true });

const insertOutboundTouching = insertTouchingStatement("message_insert_outbound_touching_conversation", OUTBOUND_COLUMNS, { skipDuplicate: false });

function insertTouchingStatement(name: string, columns: readonly MessageColumn[], options: { skipDuplicate: boolean }) {
  const statement = builtOnce<{ id: string }>(name, (db) => {
    const { inserted, touch } = insertAndTouch(db, columns, options);
    return db.with(inserted).update(conversations).set(touch.set).where(touch.where).returning({ id: conversations.id });
  });
  return (tx: Db, row: Partial<MessageInsert>, at: Date) => statement(tx, rowValues(name, columns, row, at));
}

/** The message insert over placeholders (one per column, `at`, `conversationId`) and the conversation update that reads it. */
function insertAndTouch(db: Db, columns: readonly MessageColumn[], options: { skipDuplicate: boolean }) {
  const values = db.insert(messages).values(columnPlaceholders(messages, columns) as unknown as MessageInsert);
  const insert = (options.skipDuplicate ? values.onConflictDoNothing() : values).returning({ id: messages.id });
  const inserted = db.$with("inserted").as(insert);
  const at = sql`${sql.placeholder("at")}::timestamptz`;
  const set = { lastMessageAt: lastMessageAtMovedTo(at), updatedAt: at };
  const where = and(eq(conversations.id, sql.placeholder("conversationId")), sql`exists (select 1 from ${inserted})`);
  const touch = { set, where, getSQL: () => db.update(conversations).set(set).where(where).returning({ id: conversations.id }).getSQL() };
  return { insert, inserted, touch };
}
