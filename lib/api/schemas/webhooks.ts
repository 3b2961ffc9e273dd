import { z } from "@/lib/api/zod";
import { EVENT_TYPES } from "@/lib/shared/event-types";
import { PageQuery, Timestamp } from "./common";

const DeliveryStatus = z.enum(["pending", "succeeded", "failed", "paused"]);
const EventType = z.enum(EVENT_TYPES);
const IsoDate = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .openapi({ type: "string", format: "date-time" });

export const WebhookDelivery = z
  .object({
    object: z.literal("webhook_delivery"),
    id: z.string(),
    event_id: z.string().openapi({ description: "Sent as x-svc-delivery and webhook-id: the same on every retry and redelivery." }),
    event_type: z.string(),
    status: DeliveryStatus,
    trigger: z.enum(["event", "redeliver", "replay"]),
    attempt_count: z.number().int(),
    next_attempt_at: Timestamp.nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_duration_ms: z.number().int().nullable().openapi({ description: "How long the latest attempt took (null before the first attempt)." }),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Timestamp.nullable(),
  })
  .openapi("WebhookDelivery");

const WebhookAttempt = z
  .object({
    object: z.literal("webhook_attempt"),
    id: z.string(),
    attempt_number: z.number().int(),
    url: z.string(),
    started_at: Timestamp,
    duration_ms: z.number().int(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable().openapi({ description: "The first 2 KB of the response body." }),
  })
  .openapi("WebhookAttempt");

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  attempts: z.array(WebhookAttempt),
  event: z.object({ id: z.string(), type: z.string(), payload: z.record(z.string(), z.unknown()), created_at: Timestamp }),
}).openapi("WebhookDeliveryDetail");

export const DeliveryListQuery = PageQuery.extend({
  event: EventType.optional(),
  status: DeliveryStatus.optional(),
  since: IsoDate.optional(),
});

export const ReplayRequest = z
  .object({
    since: IsoDate,
    until: IsoDate.optional(),
    event: EventType.optional(),
    status: z
      .enum(["pending", "succeeded", "failed", "paused", "none"])
      .optional()
      .openapi({ description: "Only events whose latest delivery has this status; none = never delivered." }),
  })
  .strict()
  .openapi("WebhookReplayRequest");

export const ReplayResponse = z
  .object({
    object: z.literal("webhook_replay"),
    count: z.number().int(),
    delivery_ids: z.array(z.string()).openapi({ description: "The first 100 new deliveries." }),
  })
  .openapi("WebhookReplay");

// The wire types, for `import type` in the browser (lib/client, components): z.infer of the schemas above.
export type WebhookDeliveryWire = z.infer<typeof WebhookDelivery>;
export type WebhookAttemptWire = z.infer<typeof WebhookAttempt>;
export type WebhookDeliveryDetailWire = z.infer<typeof WebhookDeliveryDetail>;
export type ReplayRequestInput = z.input<typeof ReplayRequest>;
export type ReplayResponseWire = z.infer<typeof ReplayResponse>;
