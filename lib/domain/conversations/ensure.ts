// A conversation is created on first contact, by inbound and outbound alike, so creating it is an upsert.
import { sql } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { builtOnce } from "@/lib/ports/db/prepared";
import { executeRows, insertRowsSql } from "@/lib/ports/db/bulk";
import type { ConversationRow } from "./row";

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

/** CONVERSATION_REOPENED written out, for the statements written as SQL (insertRowsSql, ingest's contact and conversation). */
export const CONVERSATION_UPSERT_CONFLICT = sql`on conflict (project_id, contact_id) do update set last_channel_id = excluded.last_channel_id, is_active = true, updated_at = excluded.updated_at`;

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
