import { z } from "@/lib/api/zod";
import { EVENT_TYPES, type EventType } from "@/lib/shared/event-types";
import { Timestamp } from "./common";

const EVENT_CURSOR = /^evt_[0-9a-hjkmnp-tv-z]{26}$/;

export const EventListenQuery = z.object({
  after: z
    .string()
    .regex(EVENT_CURSOR, "Expected the cursor of a previous answer (evt_ followed by 26 characters).")
    .optional()
    .openapi({ description: "The `cursor` of the previous answer. Absent: start from now; the answer then holds a cursor and no events." }),
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(25)
    .default(25)
    .openapi({ description: "Seconds to wait for an event before answering with none, 0 to 25.", example: 25 }),
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: "Most events per answer, 1 to 100.", example: 20 }),
  types: z
    .string()
    .max(1000)
    .optional()
    .transform((value, check) => {
      const types = (value ?? "")
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
      if (unknown.length) {
        check.addIssue({ code: "custom", message: `Unknown event type ${unknown.map((t) => `'${t}'`).join(", ")}; expected: ${EVENT_TYPES.join(", ")}.` });
        return z.NEVER;
      }
      return types as EventType[];
    })
    .openapi({ type: "string", description: "Only these event types, comma-separated (e.g. message.received,message.status).", example: "message.received" }),
});

const ListenedEvent = z
  .object({
    object: z.literal("event"),
    id: z.string().openapi({ description: "The event id, as in x-svc-delivery and webhook-id." }),
    type: z.string(),
    created_at: Timestamp,
    body: z.string().openapi({ description: "The exact raw body a webhook delivery of this event sends: POST it unchanged (signatures cover these bytes)." }),
    headers: z.record(z.string(), z.string()).openapi({
      description:
        "The headers that delivery carries: content-type, user-agent, x-svc-event, x-svc-delivery, x-svc-signature(-previous), webhook-id, webhook-timestamp, webhook-signature.",
    }),
  })
  .openapi("ListenedEvent");

export const EventBatch = z
  .object({
    object: z.literal("event_batch"),
    data: z.array(ListenedEvent),
    cursor: z.string().openapi({ description: "Pass as `after` on the next call; it moves on even when no event came." }),
    has_more: z.boolean().openapi({ description: "The batch is full: call again at once." }),
  })
  .openapi("EventBatch");
