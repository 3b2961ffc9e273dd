import type { registrationIntents } from "@/lib/db/schema";
import { waLink } from "./token";

export type RegistrationIntentRow = typeof registrationIntents.$inferSelect;
export type RegistrationIntentStatus = RegistrationIntentRow["status"];

/**
 * Expiry is decided when read: a PENDING intent past expires_at is EXPIRED whether or not a write has
 * recorded it yet (no sweep job: nothing else waits on the transition).
 */
export function effectiveStatus(row: Pick<RegistrationIntentRow, "status" | "expiresAt">, now: Date): RegistrationIntentStatus {
  return row.status === "PENDING" && row.expiresAt.getTime() <= now.getTime() ? "EXPIRED" : row.status;
}

/** docs/spec/service-spec.md "RegistrationIntent" plus what a caller needs to follow it up. */
export function serializeRegistrationIntent(row: RegistrationIntentRow, now: Date) {
  return {
    object: "registration_intent" as const,
    id: row.id,
    token: row.token,
    status: effectiveStatus(row, now),
    mode: row.mode,
    wa_link: waLink(row.whatsappNumber, row.prefilledMessage),
    whatsapp_number: row.whatsappNumber,
    prefilled_message: row.prefilledMessage,
    customer_reference: row.customerReference,
    metadata: row.metadata ?? {},
    expires_at: row.expiresAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    contact_id: row.contactId,
    created_at: row.createdAt.toISOString(),
  };
}
