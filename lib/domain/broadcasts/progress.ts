/**
 * What status callbacks and replies do to a broadcast's recipients (called from messages/status.ts and
 * ingest). The recipient follows its message forward only, like the message itself.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { broadcastRecipients, messages } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { anyOf } from "@/lib/ports/db/bulk";
import { statusesMovableTo, type DeliveryStatus } from "@/lib/domain/messages/status";
import type { BroadcastRecipientRow } from "./serialize";

/** A recipient follows its message (messages/status.ts canMove); a recipient still pending has no message to lag behind. */
export async function moveRecipient(db: Db, messageId: string, status: DeliveryStatus, at: Date, failure: Record<string, unknown> | null): Promise<void> {
  const from = ["pending", ...statusesMovableTo(status)] as BroadcastRecipientRow["status"][];
  await db
    .update(broadcastRecipients)
    .set({ status, updatedAt: at, ...(status === "failed" && failure ? { error: failure } : {}) })
    .where(and(eq(broadcastRecipients.messageId, messageId), inArray(broadcastRecipients.status, from)));
}

/** A reply counts for a broadcast message the contact got on the same channel in the 72 h before it. */
const REPLY_WINDOW_HOURS = 72;

export async function markReplied(db: Db, place: { projectId: string; contactId: string; channelId: string }, at: Date): Promise<void> {
  const since = new Date(at.getTime() - REPLY_WINDOW_HOURS * 3600_000).toISOString();
  // A provider stamps a reply in whole seconds while our sends carry milliseconds: a reply in the same
  // second as the broadcast message (an auto-reply) reads as older than it, so the bound is the end of that second.
  const until = new Date(at.getTime() + 1000).toISOString();
  await db
    .update(broadcastRecipients)
    .set({ repliedAt: at })
    .where(
      and(
        eq(broadcastRecipients.projectId, place.projectId),
        eq(broadcastRecipients.contactId, place.contactId),
        isNull(broadcastRecipients.repliedAt),
        inArray(broadcastRecipients.status, ["sent", "delivered", "read"]),
        sql`exists (select 1 from ${messages} m where m.id = ${broadcastRecipients.messageId} and m.channel_id = ${place.channelId} and m.timestamp >= ${since}::timestamptz and m.timestamp < ${until}::timestamptz)`,
      ),
    );
}

/** moveRecipient for many messages in one statement (an envelope's statuses): each recipient follows its message's final status. */
export async function moveRecipients(
  db: Db,
  moves: { messageId: string; status: DeliveryStatus; at: Date; failure: Record<string, unknown> | null }[],
): Promise<void> {
  const rows = moves.map((m) => ({
    message_id: m.messageId,
    status: m.status,
    from: ["pending", ...statusesMovableTo(m.status)].join(","),
    at: m.at.toISOString(),
    error: m.status === "failed" ? m.failure : null,
  }));
  const given = sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(message_id text, status text, "from" text, at text, error jsonb)`;
  await db
    .update(broadcastRecipients)
    .set({ status: sql`v.status`, updatedAt: sql`v.at::timestamptz`, error: sql`coalesce(v.error, ${broadcastRecipients.error})` })
    .from(given)
    .where(
      sql`${broadcastRecipients.messageId} = v.message_id and ${anyOf(
        broadcastRecipients.messageId,
        rows.map((r) => r.message_id),
      )} and ${broadcastRecipients.status} = any(string_to_array(v."from", ','))`,
    );
}
