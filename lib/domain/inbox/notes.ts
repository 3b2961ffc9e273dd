// Private notes on a conversation (docs/api-decisions.md "Team inbox"): for the team, never sent to the customer.
import { and, asc, eq, gt } from "drizzle-orm";
import { conversationNotes } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { invalidRequest } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { recordAudit } from "@/lib/domain/audit/record";
import { getConversationRowOrThrow, inboxActorOf } from "@/lib/domain/conversations";
import { publishInboxEvent } from "@/lib/domain/inbox-live";
import type { PageParams } from "@/lib/domain/shared/paging";

type NoteRow = typeof conversationNotes.$inferSelect;

function serializeNote(row: NoteRow) {
  return {
    object: "note" as const,
    id: row.id,
    conversation_id: row.conversationId,
    author: { type: row.authorType, id: row.authorId, name: row.authorName },
    body: row.body,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A conversation's notes, OLDEST first: they read as a thread beside its messages. Cursor paging as
 * every list (`starting_after` = the last id of the previous page), ascending here.
 */
export async function listNotes(ctx: Ctx, conversationId: string, page: PageParams) {
  const conversation = await getConversationRowOrThrow(ctx, conversationId);
  const ofConversation = and(eq(conversationNotes.projectId, ctx.project.id), eq(conversationNotes.conversationId, conversation.id));
  if (page.starting_after) {
    const [cursor] = await ctx.db
      .select({ id: conversationNotes.id })
      .from(conversationNotes)
      .where(and(ofConversation, eq(conversationNotes.id, page.starting_after)));
    if (!cursor) {
      throw invalidRequest(`starting_after '${page.starting_after}' is not a note of this conversation.`, {
        starting_after: ["Unknown cursor: pass the id of a note from a previous page of this list."],
      });
    }
  }
  const rows = await ctx.db
    .select()
    .from(conversationNotes)
    .where(and(ofConversation, page.starting_after ? gt(conversationNotes.id, page.starting_after) : undefined))
    .orderBy(asc(conversationNotes.id))
    .limit(page.limit + 1);
  return { object: "list" as const, data: rows.slice(0, page.limit).map(serializeNote), has_more: rows.length > page.limit };
}

/** POST /conversations/{id}/notes: the note and its audit entry (the note's id only: its text may hold the customer's details). */
export async function addNote(ctx: Ctx, conversationId: string, input: { body: string }) {
  const conversation = await getConversationRowOrThrow(ctx, conversationId);
  const author = await inboxActorOf(ctx);
  const note = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(conversationNotes)
      .values({
        id: newId("note", ctx.now.getTime()),
        projectId: ctx.project.id,
        conversationId: conversation.id,
        authorType: author.type,
        authorId: author.id,
        authorName: author.name,
        body: input.body,
        createdAt: ctx.now,
      })
      .returning();
    await recordAudit(
      { ...ctx, db: tx },
      { action: "conversation.note_added", target: { type: "conversation", id: conversation.id }, details: { note_id: row!.id } },
    );
    return serializeNote(row!);
  });
  publishInboxEvent(ctx.project.id, { type: "note.created", conversation_id: conversation.id, id: note.id });
  return note;
}
