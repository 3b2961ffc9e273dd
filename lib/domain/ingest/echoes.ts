import { and, eq, isNull } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import type { SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { messageRow } from "@/lib/domain/messages/rows";
import { insertMessageRow } from "@/lib/domain/messages/row-writes";
import type { ApplyOptions, ApplyOutcome } from "./apply";
import { mediaOf } from "./payload";
import { mutateOriginal, mutationTarget } from "./mutations";
import { addressOf, contactAndConversation, messageIdByProviderId, projectFor, type InboundOf } from "./resolve";
import { publishInboxEvent } from "@/lib/domain/inbox-live";

/**
 * Business-app echoes update what we store and emit no message.received. The echo of our own send
 * (B/C report "sent" as an echo) finds its row by provider id and changes nothing; one that may be our
 * send whose provider id is not stored yet waits, so it never becomes a second row (nor makes the send
 * job's own update collide with it).
 */
export async function applyEcho(ctx: SystemCtx, channel: ChannelRow, event: InboundOf<"echo">, options: ApplyOptions): Promise<ApplyOutcome> {
  const { db, now } = ctx;
  const message = event.message;
  if (message.type === "edit" || message.type === "revoke") {
    const target = await mutationTarget(db, channel.id, message);
    if (!target) return options.final ? "echo" : "mutation_pending";
    const changed = await mutateOriginal(db, target, message, now);
    // Written outside a transaction: committed already.
    if (changed) publishInboxEvent(changed.projectId, { type: "message.updated", conversation_id: changed.conversationId, id: changed.id });
    return "echo";
  }
  const [known] = await messageIdByProviderId(db).execute({ channel: channel.id, providerId: message.id });
  if (known) return "echo";
  const recipient = addressOf(event.to);
  if (!options.final && recipient) {
    const [inFlight] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.channelId, channel.id),
          eq(messages.direction, "outbound"),
          eq(messages.recipient, recipient),
          isNull(messages.platformMessageId),
          eq(messages.status, "queued"),
        ),
      )
      .limit(1);
    if (inFlight) return "echo_pending";
  }
  const project = await projectFor(db, channel, event.to);
  if (!project) return "no_project";
  const stored = await db.transaction(async (tx) => {
    const at = new Date(message.received_at);
    const { contact, conversation } = await contactAndConversation({ ...ctx, db: tx }, project, channel, event.to, at);
    const id = newId("message", now.getTime());
    const place = { projectId: project.id, conversationId: conversation.id, contactId: contact.id, channelId: channel.id };
    const body = { ...(message as unknown as Record<string, unknown>), source: "business_app" };
    const row = messageRow(
      place,
      { id, direction: "outbound", type: message.type, status: "sent", content: message.text, body, at, now },
      { platformMessageId: message.id, recipient, replyTo: message.replied_to?.message_id ?? null, media: message.media ? mediaOf(message.media, id) : null },
    );
    await insertMessageRow(tx, row);
    return { conversationId: conversation.id, id };
  });
  publishInboxEvent(project.id, { type: "message.created", conversation_id: stored.conversationId, id: stored.id });
  return "echo";
}
