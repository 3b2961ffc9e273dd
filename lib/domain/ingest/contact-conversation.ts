// A customer's contact and conversation in one statement: every inbound message upserts both.
import { getTableColumns, sql } from "drizzle-orm";
import { contacts, conversations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { builtOnce } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";
import { contactUpsertOf, contactUpsertQuery, settleContact, type ContactRow, type ContactUpsert } from "@/lib/domain/contacts/identity";
import { CONVERSATION_UPSERT_CONFLICT, ensureConversation, type ConversationRow } from "@/lib/domain/conversations";

/**
 * upsertContact then ensureConversation, in one round trip for a known customer (every message after
 * their first): the conversation's upsert reads the contact's id from the contact's, as a CTE. A new
 * customer's contact still has its identity to link (settleContact), which may hand the message to
 * another writer's contact: its conversation waits for that, as two statements after this one.
 */
export async function upsertContactAndConversation(db: Db, input: ContactUpsert): Promise<{ contact: ContactRow; conversation: ConversationRow }> {
  const upsert = contactUpsertOf(input);
  const [row] = await statement(db, { ...upsert.values, conversationId: newId("conversation", input.now.getTime()), at: input.now.toISOString() });
  const { contact, conversation } = row!;
  if (contact.id !== upsert.values.fresh) return { contact, conversation: conversation! };
  const settled = await settleContact(db, upsert, contact);
  return { contact: settled, conversation: await ensureConversation(db, input.projectId, settled.id, input.channelId, input.now) };
}

const statement = builtOnce<{ contact: ContactRow; conversation: ConversationRow | null }>("contact_conversation_upsert", (db) => {
  const contact = db.$with("contact").as(contactUpsertQuery(db));
  const at = sql`${sql.placeholder("at")}::timestamptz`;
  // ensureConversation's upsert, for a contact that existed before this statement (not the fresh id).
  const conversation = db.$with("conversation", getTableColumns(conversations)).as(
    sql`insert into ${conversations} ("id", "project_id", "contact_id", "last_channel_id", "started_at", "created_at", "updated_at")
      select ${sql.placeholder("conversationId")}, "contact"."project_id", "contact"."id", ${sql.placeholder("channelId")}, ${at}, ${at}, ${at}
      from "contact" where "contact"."id" <> ${sql.placeholder("fresh")}
      ${CONVERSATION_UPSERT_CONFLICT} returning *`,
  );
  return db
    .with(contact, conversation)
    .select({ contact: fieldsOf(contact, contacts), conversation: fieldsOf(conversation, conversations) })
    .from(contact)
    .leftJoin(conversation, sql`true`);
});

/** The CTE's column for each of the table's: the select maps them with the table's own decoders (dates, json). */
function fieldsOf<T extends typeof contacts | typeof conversations>(cte: object, table: T) {
  const columns = getTableColumns(table);
  const of = cte as Record<string, unknown>;
  return Object.fromEntries(Object.keys(columns).map((key) => [key, of[key]])) as typeof columns;
}
