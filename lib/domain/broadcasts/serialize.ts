import type { broadcastRecipients, broadcasts } from "@/lib/db/schema";
import type { BroadcastStats } from "./stats";

export type BroadcastRow = typeof broadcasts.$inferSelect;
export type BroadcastRecipientRow = typeof broadcastRecipients.$inferSelect;
export type BroadcastStatus = BroadcastRow["status"];

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function serializeBroadcast(row: BroadcastRow, stats: BroadcastStats) {
  return {
    object: "broadcast" as const,
    id: row.id,
    name: row.name,
    channel_id: row.channelId,
    template: { id: row.templateId, name: row.templateName, language: row.templateLanguage },
    status: row.status,
    send_at: iso(row.sendAt),
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
    pause_reason: row.pauseReason,
    stats,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function serializeRecipient(row: BroadcastRecipientRow) {
  return {
    object: "broadcast_recipient" as const,
    id: row.id,
    to: row.to,
    contact_id: row.contactId,
    status: row.status,
    skip_reason: row.skipReason,
    message_id: row.messageId,
    error: errorText(row.error),
    error_code: errorCode(row.error),
    replied_at: iso(row.repliedAt),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The failure's code alone (`outcome_unknown`, a provider code such as `131026`), for filtering and for the dashboard's words. */
function errorCode(error: Record<string, unknown> | null): string | null {
  return error && error.code !== undefined && error.code !== null ? String(error.code) : null;
}

/** The stored failure (a provider MessageFailure or our own {message}) as the one sentence the wire carries. */
function errorText(error: Record<string, unknown> | null): string | null {
  if (!error) return null;
  const message = typeof error.message === "string" ? error.message : null;
  const code = error.code !== undefined && error.code !== null ? String(error.code) : null;
  return [code, message].filter(Boolean).join(": ") || JSON.stringify(error);
}
