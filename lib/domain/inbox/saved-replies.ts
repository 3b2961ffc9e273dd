// The project's saved replies (docs/api-decisions.md "Team inbox"): text the team reuses, found by shortcut.
import { and, eq } from "drizzle-orm";
import { contacts, savedReplies, users } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getConversationRowOrThrow } from "@/lib/domain/conversations";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { renderSavedReply } from "./render";

type SavedReplyRow = typeof savedReplies.$inferSelect;

export interface SavedReplyInput {
  shortcut: string;
  title?: string | undefined;
  body: string;
}

function serializeSavedReply(row: SavedReplyRow) {
  return {
    object: "saved_reply" as const,
    id: row.id,
    shortcut: row.shortcut,
    title: row.title,
    body: row.body,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function getSavedReplyRowOrThrow(ctx: Ctx, id: string): Promise<SavedReplyRow> {
  const [row] = await ctx.db
    .select()
    .from(savedReplies)
    .where(and(eq(savedReplies.projectId, ctx.project.id), eq(savedReplies.id, id)));
  if (!row) throw notFound("saved reply", id);
  return row;
}

function shortcutTaken(shortcut: string): SvcError {
  return new SvcError("conflict", `The shortcut '${shortcut}' is already used by another saved reply of this project. Choose another, or edit that one.`, {
    issues: { shortcut: ["Already used in this project."] },
  });
}

/** A write whose shortcut collides (unique per project) becomes a 409; the index decides, so two racing writes cannot both win. */
async function guardShortcut<T>(shortcut: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (shortcut !== undefined && isUniqueViolation(error, "saved_replies_project_shortcut")) throw shortcutTaken(shortcut);
    throw error;
  }
}

export async function listSavedReplies(ctx: Ctx, page: PageParams) {
  const result = await paginate(ctx.db, savedReplies, eq(savedReplies.projectId, ctx.project.id), page);
  return { object: "list" as const, data: result.data.map(serializeSavedReply), has_more: result.has_more };
}

export async function getSavedReply(ctx: Ctx, id: string) {
  return serializeSavedReply(await getSavedReplyRowOrThrow(ctx, id));
}

/** The title defaults to the shortcut: a reply is usable from its shortcut alone. */
export async function createSavedReply(ctx: Ctx, input: SavedReplyInput) {
  const [row] = await guardShortcut(input.shortcut, () =>
    ctx.db
      .insert(savedReplies)
      .values({
        id: newId("savedReply", ctx.now.getTime()),
        projectId: ctx.project.id,
        shortcut: input.shortcut,
        title: input.title ?? input.shortcut,
        body: input.body,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning(),
  );
  return serializeSavedReply(row!);
}

export async function updateSavedReply(ctx: Ctx, id: string, input: Partial<SavedReplyInput>) {
  const current = await getSavedReplyRowOrThrow(ctx, id);
  const [row] = await guardShortcut(input.shortcut, () =>
    ctx.db
      .update(savedReplies)
      .set({
        ...(input.shortcut !== undefined ? { shortcut: input.shortcut } : {}),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.body !== undefined ? { body: input.body } : {}),
        updatedAt: ctx.now,
      })
      .where(and(eq(savedReplies.projectId, ctx.project.id), eq(savedReplies.id, current.id)))
      .returning(),
  );
  if (!row) throw notFound("saved reply", id);
  return serializeSavedReply(row);
}

export async function deleteSavedReply(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .delete(savedReplies)
    .where(and(eq(savedReplies.projectId, ctx.project.id), eq(savedReplies.id, id)))
    .returning({ id: savedReplies.id });
  if (!row) throw notFound("saved reply", id);
  return { object: "saved_reply" as const, id: row.id, deleted: true as const };
}

/**
 * POST /saved-replies/{id}/render: the body filled for one conversation of the project, from its
 * contact (name, phone) and the calling member (their name: an API key has none, so it is missing).
 */
export async function renderSavedReplyFor(ctx: Ctx, id: string, input: { conversation_id: string }) {
  const reply = await getSavedReplyRowOrThrow(ctx, id);
  const conversation = await getConversationRowOrThrow(ctx, input.conversation_id);
  const [contact] = await ctx.db
    .select({ name: contacts.name, phone: contacts.phone })
    .from(contacts)
    .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, conversation.contactId)));
  const [member] = ctx.actor.type === "user" ? await ctx.db.select({ name: users.name }).from(users).where(eq(users.id, ctx.actor.id)) : [];
  const rendered = renderSavedReply(reply.body, {
    "contact.name": contact?.name ?? null,
    "contact.phone": contact?.phone ?? null,
    "member.name": member?.name ?? null,
  });
  return { object: "saved_reply_render" as const, ...rendered };
}
