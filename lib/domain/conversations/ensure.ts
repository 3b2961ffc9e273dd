// A conversation is created on first contact, by inbound and outbound alike, so creating it is an upsert.
import { sql, type SQL } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { builtOnce } from "@/lib/ports/db/prepared";
import { executeRows, insertRowsSql } from "@/lib/ports/db/bulk";
import type { ConversationRow } from "./row";
import { lastMessageAtMovedTo } from "./touch";

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
  return executeRows<{ id: string; contactId: string }>(
    db,
    insertRowsSql(conversations, rows, sql`${CONVERSATION_UPSERT_CONFLICT} returning id, contact_id as "contactId"`),
  );
}

/** CONVERSATION_REOPENED written out, for the statements written as SQL (insertRowsSql, conversationOfContactSql). */
const CONVERSATION_UPSERT_CONFLICT = sql`on conflict (project_id, contact_id) do update set last_channel_id = excluded.last_channel_id, is_active = true, updated_at = excluded.updated_at`;

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

/**
 * ensureConversation's upsert as the body of a CTE, for a statement that upserts the contact first in a
 * CTE named "contact" (ingest's contact and conversation): the contact's project and id are read from
 * it, unless its id is the placeholder `fresh` (a new contact, whose identity is linked before it gets a
 * conversation). Placeholders: conversationId, channelId, at (text), touchAt (text or null: when set,
 * last_message_at moves to it, never back), fresh.
 */
export function conversationOfContactSql(): SQL {
  const at = sql`${sql.placeholder("at")}::timestamptz`;
  const touchAt = sql`${sql.placeholder("touchAt")}::timestamptz`;
  return sql`insert into ${conversations} ("id", "project_id", "contact_id", "last_channel_id", "started_at", "last_message_at", "created_at", "updated_at")
    select ${sql.placeholder("conversationId")}, "contact"."project_id", "contact"."id", ${sql.placeholder("channelId")}, ${at}, ${touchAt}, ${at}, ${at}
    from "contact" where "contact"."id" <> ${sql.placeholder("fresh")}
    ${CONVERSATION_UPSERT_CONFLICT}, last_message_at = ${lastMessageAtMovedTo(sql`excluded.last_message_at`)} returning *`;
}
