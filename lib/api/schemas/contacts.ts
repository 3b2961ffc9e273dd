import { z } from "@/lib/api/zod";
import { Timestamp } from "./common";
import { Channel } from "./channels";
import { MessageContentFields } from "./messages-read";
import { ConversationInboxFields, ConversationThreadOwner } from "./conversations";

const E164 = z.string().regex(/^\+[1-9]\d{7,14}$/, "Expected E.164, e.g. +14155550123.");
const Bcp47 = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "Expected a BCP-47 language tag, e.g. en or pt-BR.");

const OptInRecord = z
  .object({ status: z.enum(["active", "revoked"]), source: z.string(), opted_in_at: Timestamp, revoked_at: Timestamp.nullable() })
  .openapi("OptInRecord");

export const Contact = z
  .object({
    object: z.literal("contact"),
    id: z.string(),
    contact_id: z.string(),
    phone: z.string().nullable(),
    user_id: z.string().nullable(),
    username: z.string().nullable(),
    name: z.string().nullable(),
    preferred_language: z.string().nullable(),
    project_id: z.string(),
    channel_id: z.string(),
    channel: Channel,
    reference_id: z.string().nullable(),
    status: z.string(),
    opt_in: z.union([OptInRecord, z.null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Contact");

export const ContactCreate = z
  .object({
    phone: E164.optional(),
    user_id: z.string().min(1).max(128).optional(),
    channel_id: z.string().min(1).max(200).optional(),
    reference_id: z.string().max(200).nullable().optional(),
    preferred_language: Bcp47.nullable().optional(),
    opt_in: z.boolean().optional().openapi({
      description:
        "true: make the opt-in active (an already active one keeps its opted_in_at and source); false: revoke it. Omitted: an active opt-in is recorded only when the contact has no opt-in record in this project yet.",
    }),
  })
  .strict()
  .refine((v) => Boolean(v.phone) !== Boolean(v.user_id), { message: "Give exactly one of phone or user_id.", path: ["phone"] })
  .openapi("ContactCreate");

export const ContactUpdate = z
  .object({
    reference_id: z.string().max(200).nullable(),
    preferred_language: Bcp47.nullable(),
    opt_in: z.boolean().openapi({ description: "true records an active opt-in; false revokes it." }),
  })
  .partial()
  .strict()
  .openapi("ContactUpdate");

export const ContactErased = z
  .object({
    object: z.literal("contact"),
    id: z.string(),
    deleted: z.literal(true),
    erased: z.boolean(),
    deleted_data_types: z
      .array(z.enum(["profile", "messages", "notes", "media", "opt_ins", "flow_submissions", "registration_intents", "webhook_payloads"]))
      .openapi({ description: "The kinds of personal data this project held for the contact and that were erased." }),
  })
  .openapi("ContactErased");

const MessagingWindow = z
  .object({
    open: z
      .boolean()
      .openapi({ description: "True while free-form messages can be sent on last_channel_id: the customer wrote there less than 24 hours ago." }),
    closes_at: Timestamp.nullable().openapi({
      description: "24 hours after the customer's last message on last_channel_id (in the past once closed); null while they have never written there.",
    }),
  })
  .openapi("MessagingWindow", {
    description:
      "The 24-hour customer-service window on the conversation's last channel, by the same rule POST /messages applies (outside it: 409 outside_messaging_window; PLATFORM_A can still send a template).",
  });

export const Conversation = z
  .object({
    object: z.literal("conversation"),
    id: z.string(),
    conversation_id: z.string(),
    contact_id: z.string(),
    phone: z.string().nullable(),
    name: z.string().nullable(),
    reference_id: z.string().nullable(),
    last_channel_id: z.string().nullable(),
    is_active: z.boolean(),
    handoff: z.object({ status: z.enum(["AI_ACTIVE", "HUMAN_ACTIVE"]), reason: z.string().nullable(), handoff_at: Timestamp.nullable() }),
    started_at: Timestamp,
    last_message_at: Timestamp.nullable(),
    messaging_window: MessagingWindow,
    thread_owner: ConversationThreadOwner,
    ...ConversationInboxFields,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Conversation");

export const HandoffRequest = z
  .object({ enabled: z.boolean(), reason: z.string().max(500).nullable().optional() })
  .strict()
  .openapi("HandoffRequest");

const MessageFailure = z
  .object({
    provider: z.enum(["provider", "service"]),
    summary: z.string(),
    code: z.union([z.string(), z.number()]).nullable(),
    subcode: z.union([z.string(), z.number()]).nullable(),
    type: z.string().nullable(),
    title: z.string().nullable(),
    message: z.string(),
    fbtrace_id: z.string().nullable(),
    http_status: z.number().int().nullable(),
    occurred_at: Timestamp,
  })
  .openapi("MessageFailure");

export const Message = z
  .object({
    object: z.literal("message"),
    id: z.string(),
    message_id: z.string(),
    conversation_id: z.string().nullable(),
    contact_id: z.string(),
    channel_id: z.string(),
    direction: z.enum(["inbound", "outbound"]),
    type: z.string(),
    status: z.string(),
    content: z.string().nullable(),
    platform_message_id: z.string().nullable(),
    reply_to: z.string().nullable(),
    failure: z.union([MessageFailure, z.null()]),
    media: z.record(z.string(), z.unknown()).nullable(),
    ...MessageContentFields,
    timestamp: Timestamp,
  })
  .openapi("Message");

// The wire types, for `import type` in the browser (lib/client, components): z.infer of the schemas above.
export type ContactWire = z.infer<typeof Contact>;
export type ContactErasedWire = z.infer<typeof ContactErased>;
export type ConversationWire = z.infer<typeof Conversation>;
export type MessageWire = z.infer<typeof Message>;
