import { and, eq, inArray, or, sql } from "drizzle-orm";
import {
  channels,
  events,
  functionInvocations,
  functionKv,
  hostedFunctions,
  idempotencyKeys,
  inboundWebhooks,
  projects,
  webhookAttempts,
} from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { JobMentions } from "@/lib/ports/queue";
import type { ConversationErasure } from "./erase-conversation";
import { mentionsAny, type ErasureTarget } from "./erase-target";

/** What a redacted event payload reads: a pending delivery signs and sends exactly this. */
const ERASED_PAYLOAD = { erased: true } as const;

/**
 * Stored text that quotes the contact: event payloads (webhook deliveries read them at each attempt,
 * so pending ones send the redacted payload), receivers' answers, idempotency replays, function logs.
 * All in this project only. Returns whether any event payload was redacted.
 */
export async function erasePayloads(tx: Db, target: ErasureTarget): Promise<boolean> {
  const { projectId, markers } = target;
  const redacted = await tx
    .update(events)
    .set({ payload: ERASED_PAYLOAD })
    .where(and(eq(events.projectId, projectId), mentionsAny(events.payload, markers)))
    .returning({ id: events.id });
  await tx
    .update(webhookAttempts)
    .set({ responseExcerpt: null, error: sql`case when ${mentionsAny(webhookAttempts.error, markers)} then null else ${webhookAttempts.error} end` })
    .where(
      and(eq(webhookAttempts.projectId, projectId), or(mentionsAny(webhookAttempts.responseExcerpt, markers), mentionsAny(webhookAttempts.error, markers))),
    );
  // A replay of a request that answered with the contact (POST /contacts, POST /messages) would hand
  // it back: those records go, so a retry runs again instead.
  await tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.projectId, projectId), mentionsAny(idempotencyKeys.responseBody, markers)));
  await eraseFunctionData(tx, target);
  return redacted.length > 0;
}

async function eraseFunctionData(tx: Db, target: ErasureTarget): Promise<void> {
  const { projectId, markers } = target;
  await tx
    .update(functionInvocations)
    .set({ input: null, result: null, logs: [], error: null })
    .where(
      and(
        eq(functionInvocations.projectId, projectId),
        or(
          mentionsAny(functionInvocations.input, markers),
          mentionsAny(functionInvocations.result, markers),
          mentionsAny(functionInvocations.logs, markers),
          mentionsAny(functionInvocations.error, markers),
        ),
      ),
    );
  const projectFunctions = tx.select({ id: hostedFunctions.id }).from(hostedFunctions).where(eq(hostedFunctions.projectId, projectId));
  await tx
    .delete(functionKv)
    .where(and(inArray(functionKv.functionId, projectFunctions), or(mentionsAny(functionKv.key, markers), mentionsAny(functionKv.value, markers))));
}

/**
 * Raw provider envelopes have no project: the ones redacted are those that mention the contact's
 * number (or user id) AND the sender id of a channel this project's contact used (its own channels,
 * or the shared sandbox number it wrote to). The body keeps valid JSON so tooling that lists
 * envelopes still parses it.
 */
export async function eraseInboundEnvelopes(tx: Db, target: ErasureTarget, channelIds: string[]): Promise<void> {
  const personal = [target.digits, target.userId].filter((m): m is string => Boolean(m));
  if (!personal.length) return;
  const [project] = await tx.select({ channelId: projects.channelId }).from(projects).where(eq(projects.id, target.projectId));
  const ids = [...new Set([...channelIds, target.channelId, ...(project?.channelId ? [project.channelId] : [])])];
  const senders = await tx.select({ senderId: channels.providerSenderId }).from(channels).where(inArray(channels.id, ids));
  const senderIds = senders.map((s) => s.senderId).filter((s): s is string => Boolean(s));
  if (!senderIds.length) return;
  await tx
    .update(inboundWebhooks)
    .set({ body: JSON.stringify(ERASED_PAYLOAD), error: null })
    .where(and(mentionsAny(inboundWebhooks.body, personal), mentionsAny(inboundWebhooks.body, senderIds)));
}

/** What names the contact in a job row: its ids, its messages' and conversations' ids, its number and user id. */
export function jobMentionsOf(target: ErasureTarget, conversation: Pick<ConversationErasure, "messageIds" | "conversationIds">): JobMentions {
  return {
    ids: [target.contactId, ...conversation.conversationIds, ...conversation.messageIds],
    texts: target.markers.filter((marker) => marker !== target.contactId),
  };
}
