import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { BROADCAST_RECIPIENT_STATUSES, BROADCAST_STATUSES } from "@/lib/db/schema/broadcasts";
import { RECIPIENT_LIMITS } from "@/lib/shared/broadcasts/recipients";

/**
 * Broadcasts on the wire (docs/spec/decisions.md "Broadcasts"). Every write requires Idempotency-Key.
 */

/** The dashboard cuts an upload into calls of this many (lib/shared/broadcasts/recipients.ts). */
export const MAX_RECIPIENTS_PER_CALL = RECIPIENT_LIMITS.perCall;

const Status = z.enum(BROADCAST_STATUSES).openapi("BroadcastStatus", {
  description:
    "DRAFT → (send) SENDING, or SCHEDULED with send_at; SENDING → COMPLETED when every recipient is settled; PAUSED by the service " +
    "(pause_reason: template_paused, template_disabled, template_not_approved, throughput_errors, channel_not_ready, sender_failed) or by pause " +
    "(paused_by_user), and send resumes it; CANCELLED by cancel. FAILED is reserved: the service pauses rather than fails, so nothing is lost.",
});
const RecipientStatus = z.enum(BROADCAST_RECIPIENT_STATUSES).openapi("BroadcastRecipientStatus");

const TemplateRef = z
  .union([z.object({ id: z.string().min(1).max(200) }).strict(), z.object({ name: z.string().min(1).max(512), language: z.string().min(2).max(10) }).strict()])
  .openapi("BroadcastTemplateRef", { description: "The channel's template by id, or by name and language." });

const BroadcastRecipientInput = z
  .object({
    to: z.string().min(1).max(RECIPIENT_LIMITS.to).optional().openapi({ description: "The customer's number in E.164 (with or without +)." }),
    contact_id: z.string().min(1).max(RECIPIENT_LIMITS.contactId).optional(),
    parameters: z
      .union([z.record(z.string(), z.union([z.string(), z.number()])), z.array(z.record(z.string(), z.unknown()))])
      .optional()
      .openapi({
        description:
          'The template\'s variables for this recipient: a map of body variables ({"1": "Ana"} or {"first_name": "Ana"}; a header text ' +
          'variable as "header.<name>"), or the full `components` array of a template send.',
      }),
  })
  .strict()
  .openapi("BroadcastRecipientInput", { description: "Exactly one of to or contact_id." });

export const BroadcastCreateRequest = z
  .object({
    name: z.string().min(1).max(200),
    channel_id: z.string().min(1).max(200),
    template: TemplateRef,
    send_at: Timestamp.optional().openapi({ description: "Schedule it: the broadcast starts sending then, once `send` was called (SCHEDULED)." }),
    recipients: z.array(BroadcastRecipientInput).max(MAX_RECIPIENTS_PER_CALL).optional(),
  })
  .strict()
  .openapi("BroadcastCreateRequest");

export const BroadcastRecipientsRequest = z
  .object({ recipients: z.array(BroadcastRecipientInput).min(1).max(MAX_RECIPIENTS_PER_CALL) })
  .strict()
  .openapi("BroadcastRecipientsRequest");

const BroadcastStats = z
  .object({
    total: z.number().int(),
    pending: z.number().int(),
    queued: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    read: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    replied: z.number().int(),
    outcome_unknown: z
      .number()
      .int()
      .openapi({
        description:
          "Of `failed`: recipients whose send may have reached the customer but whose answer was lost (the sender's worker died, or " +
          "the provider did not answer in time). They are never sent again automatically: `POST /broadcasts/{id}/resend-unknown` sends them once more.",
      }),
  })
  .openapi("BroadcastStats", {
    description:
      "Recipients by their current status, each counted once: pending + queued + sent + delivered + read + failed + skipped = total, " +
      "the same counts `GET /broadcasts/{id}/recipients?status=` lists (a message that was read counts in `read`, not in `delivered`: " +
      "delivered or further is `delivered + read`). `replied` counts recipients who wrote back after their message, whatever their status; " +
      "`outcome_unknown` is part of `failed`.",
  });

export const Broadcast = z
  .object({
    object: z.literal("broadcast"),
    id: z.string(),
    name: z.string(),
    channel_id: z.string(),
    template: z.object({ id: z.string(), name: z.string(), language: z.string() }),
    status: Status,
    send_at: Timestamp.nullable(),
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    pause_reason: z.string().nullable(),
    stats: BroadcastStats,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Broadcast");

export const BroadcastRecipientsAdded = z
  .object({
    object: z.literal("broadcast_recipients_added"),
    broadcast_id: z.string(),
    added: z.number().int(),
    duplicates: z.number().int(),
    errors: z.array(z.object({ index: z.number().int(), message: z.string() })),
  })
  .openapi("BroadcastRecipientsAdded");

export const BroadcastRecipient = z
  .object({
    object: z.literal("broadcast_recipient"),
    id: z.string(),
    to: z.string(),
    contact_id: z.string().nullable(),
    status: RecipientStatus,
    skip_reason: z.string().nullable(),
    message_id: z.string().nullable(),
    error: z.string().nullable(),
    error_code: z
      .string()
      .nullable()
      .openapi({ description: "The failure's code alone: the provider's (e.g. `131026`), or `outcome_unknown` for a send whose answer was lost." }),
    replied_at: Timestamp.nullable(),
    updated_at: Timestamp,
  })
  .openapi("BroadcastRecipient");

export const BroadcastListQuery = PageQuery.extend({ status: Status.optional(), channel_id: z.string().min(1).max(200).optional() });
export const BroadcastRecipientListQuery = PageQuery.extend({ status: RecipientStatus.optional() });

export type BroadcastWire = z.infer<typeof Broadcast>;
export type BroadcastStatsWire = z.infer<typeof BroadcastStats>;
export type BroadcastRecipientWire = z.infer<typeof BroadcastRecipient>;
export type BroadcastRecipientsAddedWire = z.infer<typeof BroadcastRecipientsAdded>;
export type BroadcastCreateWire = z.infer<typeof BroadcastCreateRequest>;
export type BroadcastRecipientInputWire = z.infer<typeof BroadcastRecipientInput>;
