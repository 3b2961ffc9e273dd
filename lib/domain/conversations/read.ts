// One conversation and its messages, always within the caller's project.
import { and, eq } from "drizzle-orm";
import { conversations, messages } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { currentMediaOf } from "@/lib/domain/media/wire";
import { serializeConversation } from "./serialize";
import type { ConversationRow } from "./row";

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

export async function listConversationMessages(ctx: Ctx, id: string, page: PageParams) {
  const conversation = await getConversationRowOrThrow(ctx, id);
  const result = await paginate(ctx.db, messages, and(eq(messages.projectId, ctx.project.id), eq(messages.conversationId, conversation.id)), page);
  const current = await currentMediaOf(ctx.db, ctx.project.id, result.data, ctx.now, ctx.settings.publicUrl);
  return { data: result.data.map((row) => ({ ...serializeMessage(row), media: current.get(row.id) ?? row.media ?? null })), has_more: result.has_more };
}
