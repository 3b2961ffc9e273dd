import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { REGISTRATION_INTENT_STATUSES } from "@/lib/db/schema/registration-intents";
import { EXPIRES_MAX_SECONDS, EXPIRES_MIN_SECONDS } from "@/lib/domain/registration-intents/create";

/** Registration intents on the wire: docs/spec/service-spec.md "RegistrationIntent", docs/spec/decisions.md "Registration intents". */

const Status = z.enum(REGISTRATION_INTENT_STATUSES).openapi("RegistrationIntentStatus", {
  description: "PENDING until a message carrying the token arrives (COMPLETED) or expires_at passes (EXPIRED).",
});

export const RegistrationIntentCreateRequest = z
  .object({
    customer_reference: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: "Your id for this customer; later events carry it as contact_reference.", example: "customer-8841" }),
    prefilled_message: z.string().min(1).max(140).optional().openapi({
      description: "The text the link prefills; the token is appended (with a space) and the whole text must fit 140 characters.",
    }),
    expires_in_seconds: z
      .number()
      .int()
      .min(EXPIRES_MIN_SECONDS)
      .max(EXPIRES_MAX_SECONDS)
      .optional()
      .openapi({ description: "60 to 604800 (7 days, the default)." }),
    metadata: z.record(z.string(), z.unknown()).optional().openapi({ description: "Yours, echoed back: at most 50 keys and 8 KiB as JSON." }),
  })
  .strict()
  .openapi("RegistrationIntentCreateRequest");

export const RegistrationIntent = z
  .object({
    object: z.literal("registration_intent"),
    id: z.string(),
    token: z.string().openapi({ description: "`svcreg_` + 22 base62 characters; matched case-insensitively anywhere in the customer's message." }),
    status: Status,
    mode: z.enum(["test", "live"]).openapi({ description: "live: the project's own connected PLATFORM_A number; test: the shared sandbox number." }),
    wa_link: z.string().openapi({ description: "https://wa.me/<digits>?text=<encoded prefilled_message>: the link the customer taps." }),
    whatsapp_number: z.string().openapi({ description: "The number the link opens (E.164)." }),
    prefilled_message: z.string(),
    customer_reference: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    expires_at: Timestamp,
    completed_at: Timestamp.nullable(),
    contact_id: z.string().nullable().openapi({ description: "The contact who sent the token, once COMPLETED." }),
    created_at: Timestamp,
  })
  .openapi("RegistrationIntent");

export const RegistrationIntentListQuery = PageQuery.extend({
  status: Status.optional(),
  customer_reference: z.string().min(1).max(200).optional(),
});

export type RegistrationIntentWire = z.infer<typeof RegistrationIntent>;
