/**
 * POST /messages: request and response schemas, and the mapping of a parsed request to the
 * OutboundMessage that domain code sends. Pure: no database, no platform rules (those depend on the
 * channel: lib/domain/messages/platform-rules.ts).
 *
 * Where validation problems are reported (`issues` keys of the 400 invalid_request):
 * - No content field at all: `body` (a problem with the whole body, as everywhere in the API).
 * - More than one content field: each content field given (`text`, `media`, ...).
 * - Neither conversation_id nor to: both `conversation_id` and `to`; both given: both keys.
 * - Inside a content field: the dotted path of the offending value (`interactive.buttons.3`,
 *   `contacts.0.name`, `media.link`). Conventions of the nested schemas: messages-shared.ts.
 *
 * `to` must be E.164 with the leading `+` (`+` then 8 to 15 digits, the first not 0). Digits without
 * `+`, spaces and dashes are refused rather than guessed at: a number without its country code would
 * reach the wrong person.
 */
import { z } from "@/lib/api/zod";
import type { OutboundContent, OutboundMessage } from "@/lib/ports/provider/outbound";
import { OutboundContacts } from "./messages-contacts";
import { OutboundLocation, OutboundMedia, OutboundReaction, OutboundSticker, OutboundTemplate } from "./messages-content";
import { OutboundInteractive } from "./messages-interactive";
import { MessageContentFields } from "./messages-read";
import { Id, exactlyOne, text } from "./messages-shared";

/** Rule 1: exactly one of these per request. */
export const CONTENT_FIELDS = ["text", "template", "media", "interactive", "reaction", "location", "contacts", "sticker"] as const;
type ContentField = (typeof CONTENT_FIELDS)[number];

const E164 = /^\+[1-9]\d{7,14}$/;

export const MessageSendRequest = z
  .object({
    channel_id: Id.openapi({ description: "The channel to send from." }),
    conversation_id: Id.optional().openapi({ description: "Reply in this existing conversation. Exactly one of conversation_id or to." }),
    to: z.string().regex(E164, "Must be an E.164 phone number: + then 8 to 15 digits, e.g. +14155550123.").optional().openapi({
      description:
        "Recipient phone in E.164 (+ then 8 to 15 digits); needs a dedicated channel and, when the project requires it, an active opt-in. Exactly one of conversation_id or to.",
      example: "+14155550123",
    }),
    idempotency_key: Id.optional().openapi({ description: "Body alternative to the Idempotency-Key header, 1 to 200 characters." }),
    reply_to: Id.optional().openapi({ description: "Provider message id of a message to quote (1 to 200 characters); works with any content type." }),
    text: text(4096).optional().openapi({ description: "A text message, 1 to 4096 characters." }),
    template: OutboundTemplate.optional(),
    media: OutboundMedia.optional(),
    interactive: OutboundInteractive.optional(),
    reaction: OutboundReaction.optional(),
    location: OutboundLocation.optional(),
    contacts: OutboundContacts.optional(),
    sticker: OutboundSticker.optional(),
  })
  .strict()
  .superRefine((request, ctx) => {
    const given = CONTENT_FIELDS.filter((field) => request[field] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({ code: "custom", path: [], message: `Give exactly one content field: ${CONTENT_FIELDS.join(", ")}.` });
    } else if (given.length > 1) {
      for (const field of given)
        ctx.addIssue({ code: "custom", path: [field], message: `Give exactly one content field; this request has ${given.join(", ")}.` });
    }
    exactlyOne(ctx, request, ["conversation_id", "to"], "Give exactly one of conversation_id (reply in a conversation) or to (a phone number).");
  })
  .openapi("MessageSendRequest", {
    description:
      "channel_id, exactly one of conversation_id or to, and exactly one content field: text, template, media, interactive, reaction, location, contacts or sticker.",
  });

export type MessageSendRequestInput = z.input<typeof MessageSendRequest>;
type MessageSendRequestData = z.output<typeof MessageSendRequest>;

export const MessageSendResponse = z
  .object({
    object: z.literal("message"),
    id: z.string().openapi({ description: "Message id (msg_...)." }),
    status: z.literal("queued"),
    conversation_id: z.string(),
    contact_id: z.string(),
    idempotency_key: z.string().openapi({ description: "The key in force: the one sent, or one generated for this request." }),
    // The structured content as stored (the Message object's fields): null except the one sent.
    ...MessageContentFields,
  })
  .strict()
  .openapi("MessageSendResponse");

export type MessageSendResponseWire = z.infer<typeof MessageSendResponse>;

/** The content fields and reply_to of a parsed request: all toOutboundMessage reads. */
export type MessageSendContent = Pick<MessageSendRequestData, ContentField | "reply_to">;

/** The parsed request's single content field as OutboundContent, plus replyTo when quoting. */
export function toOutboundMessage(request: MessageSendContent): OutboundMessage {
  const content = contentOf(request);
  return request.reply_to === undefined ? { content } : { content, replyTo: request.reply_to };
}

function contentOf(request: MessageSendContent): OutboundContent {
  if (request.text !== undefined) return { kind: "text", text: request.text };
  if (request.template !== undefined) return { kind: "template", template: request.template };
  if (request.media !== undefined) return { kind: "media", media: request.media };
  if (request.interactive !== undefined) return { kind: "interactive", interactive: request.interactive };
  if (request.reaction !== undefined) return { kind: "reaction", reaction: request.reaction };
  if (request.location !== undefined) return { kind: "location", location: request.location };
  if (request.contacts !== undefined) return { kind: "contacts", contacts: request.contacts };
  if (request.sticker !== undefined) return { kind: "sticker", sticker: request.sticker };
  // MessageSendRequest guarantees a content field; reaching this is a programming error.
  throw new Error("toOutboundMessage: the request has no content field.");
}
