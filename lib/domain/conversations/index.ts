import { eq } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { serializeConversation } from "./serialize";
import { syncThreadOwner } from "./thread-sync";
import { getConversationRowOrThrow } from "./read";

// The module's public surface: 19 importers across messaging, ingest, agents and the routes.
export type { ConversationRow } from "./row";
export { ensureConversation, ensureConversations } from "./ensure";
export { touchConversation, touchConversations } from "./touch";
export {
  insertInboundMessageTouchingConversation,
  insertOutboundMessageTouchingConversation,
  type InboundMessageInsert,
  type OutboundMessageInsert,
} from "./message-insert";
export { getConversation, getConversationRowOrThrow, listConversationMessages } from "./read";
export { listConversations, type ConversationFilter } from "./list";
export { lastCustomerMessageAt, lastCustomerMessageAtSql, MESSAGING_WINDOW_MS, messagingWindow, type MessagingWindow } from "./window";

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
