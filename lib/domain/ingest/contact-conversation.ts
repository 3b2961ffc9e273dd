// A customer's contact and conversation in one statement: every inbound message upserts both.
import { getTableColumns, sql } from "drizzle-orm";
import { contacts, conversations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { builtOnce } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";
import { contactUpsertOf, contactUpsertQuery, settleContact, type ContactRow, type ContactUpsert } from "@/lib/domain/contacts/identity";
import { conversationOfContactSql, type ConversationRow } from "@/lib/domain/conversations";

/**
 * upsertContact then ensureConversation, in one round trip for a known customer (every message after
 * their first): the conversation's upsert reads the contact's id from the contact's, as a CTE. With
 * `touchAt` (a message stored with them) the conversation's last_message_at moves to it in the same
 * write, never back, instead of a second update of the row. A new customer's contact still has its
 * identity to link (settleContact), which may hand the message to another writer's contact: the same
 * statement then runs again, and finds the contact the identity names.
 */
export async function upsertContactAndConversation(
  db: Db,
  input: ContactUpsert,
  touchAt: Date | null = null,
): Promise<{ contact: ContactRow; conversation: ConversationRow }> {
  const upsert = contactUpsertOf(input);
  const values = { conversationId: newId("conversation", input.now.getTime()), at: input.now.toISOString(), touchAt: touchAt?.toISOString() ?? null };
  const [row] = await statement(db, { ...upsert.values, ...values });
  if (row!.contact.id !== upsert.values.fresh) return { contact: row!.contact, conversation: row!.conversation! };
  await settleContact(db, upsert, row!.contact);
  const [linked] = await statement(db, { ...upsert.values, fresh: newId("contact"), ...values });
  return { contact: linked!.contact, conversation: linked!.conversation! };
}

const statement = builtOnce<{ contact: ContactRow; conversation: ConversationRow | null }>("contact_conversation_upsert", (db) => {
  const contact = db.$with("contact").as(contactUpsertQuery(db));
  const conversation = db.$with("conversation", getTableColumns(conversations)).as(conversationOfContactSql());
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
