/**
 * The structured content of the Message object (GET /messages, GET /messages/{id}, a conversation's
 * messages, the POST /messages response): `interactive`, `location`, `contacts`, `template`,
 * `reaction`, `sticker`. Every field is always present, null unless it is the message's content
 * (as `media` and `failure` are: docs/api-decisions.md "Message content").
 *
 * Shapes: what we sent is returned in the send request's shape (messages-*.ts) after its
 * normalization (interactive `body`/`footer` as strings, `header` as an object, cta_url's
 * display_text/url at the top level), so it can be sent again as is. What the customer sent is
 * returned in the shape of message.received's `messages[]` item (lib/domain/ingest/payload.ts).
 * Those inbound shapes are lenient: the provider's content is reported, never judged.
 */
import { z } from "@/lib/api/zod";
import { OutboundLocation, OutboundSticker, OutboundTemplate } from "./messages-content";
import { OutboundInteractive } from "./messages-interactive";

/** message.received `messages[].interactive`: what the customer tapped or submitted. */
const InboundInteractive = z
  .object({
    type: z.string().openapi({
      description: "button_reply, list_reply, nfm_reply (a completed Flow), button (a template quick reply), quick_reply or postback (PLATFORM_B/C).",
    }),
    id: z.string().nullable().openapi({ description: "The id of the button or row tapped (the id you sent)." }),
    title: z.string().nullable(),
    description: z.string().nullable(),
    payload: z.string().nullable().openapi({ description: "Quick reply / postback payload (PLATFORM_B/C), template button payload (PLATFORM_A)." }),
    response: z.record(z.string(), z.unknown()).nullable().openapi({ description: "nfm_reply: the completed Flow's response." }),
    flow_token: z.string().nullable(),
  })
  .openapi("InboundInteractive", { description: "A reply the customer tapped or submitted (message.received messages[].interactive)." });

/** An outbound Flow message as sent by POST /flows/send (not accepted by POST /messages: a Flow goes out with its dispatch). */
const FlowInteractive = z
  .object({
    type: z.literal("flow"),
    body: z.string(),
    header: z.object({ type: z.literal("text"), text: z.string() }).optional(),
    footer: z.string().optional(),
    flow: z.object({
      flow_id: z.string().openapi({ description: "The provider's flow id (meta_flow_id of the version sent)." }),
      flow_token: z.string(),
      flow_cta: z.string(),
      flow_action: z.enum(["navigate", "data_exchange"]),
      screen: z.string().optional(),
      data: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi("FlowInteractive", { description: "A Flow message sent with POST /flows/send." });

/** message.received `messages[].location`. */
const InboundLocation = z
  .object({
    latitude: z.number(),
    longitude: z.number(),
    name: z.string().nullable(),
    address: z.string().nullable(),
    url: z.string().nullable(),
  })
  .openapi("InboundLocation", { description: "A location the customer shared (message.received messages[].location)." });

const CardPart = z.string();

/** A contact card in the provider's contacts shape: the send request's keys, as the provider gave them. */
const ContactCard = z
  .object({
    name: z.object({
      formatted_name: CardPart,
      first_name: CardPart.optional(),
      last_name: CardPart.optional(),
      middle_name: CardPart.optional(),
      suffix: CardPart.optional(),
      prefix: CardPart.optional(),
    }),
    birthday: CardPart.optional(),
    phones: z.array(z.object({ phone: CardPart.optional(), type: CardPart.optional(), wa_id: CardPart.optional() })).optional(),
    emails: z.array(z.object({ email: CardPart.optional(), type: CardPart.optional() })).optional(),
    urls: z.array(z.object({ url: CardPart.optional(), type: CardPart.optional() })).optional(),
    addresses: z
      .array(
        z.object({
          street: CardPart.optional(),
          city: CardPart.optional(),
          state: CardPart.optional(),
          zip: CardPart.optional(),
          country: CardPart.optional(),
          country_code: CardPart.optional(),
          type: CardPart.optional(),
        }),
      )
      .optional(),
    org: z.object({ company: CardPart.optional(), department: CardPart.optional(), title: CardPart.optional() }).optional(),
  })
  .openapi("ContactCard", { description: "A contact card (the send request's OutboundContactCard keys); inbound cards carry what the provider gave." });

const MessageReaction = z
  .object({
    message_id: z.string().openapi({ description: "Provider id of the message reacted to." }),
    emoji: z.string().openapi({ description: 'The emoji; "" when the reaction was removed.' }),
  })
  .openapi("MessageReaction");

/** The six content fields, spread into Message and MessageSendResponse. */
export const MessageContentFields = {
  interactive: z.union([OutboundInteractive, FlowInteractive, InboundInteractive, z.null()]).openapi({
    description:
      "Interactive messages: outbound, the interactive object as sent (OutboundInteractive); inbound, the reply tapped (InboundInteractive). Null for other types.",
  }),
  location: z
    .union([OutboundLocation, InboundLocation, z.null()])
    .openapi({ description: "Location messages: latitude, longitude, name, address (inbound also url). Null for other types." }),
  contacts: z.union([z.array(ContactCard), z.null()]).openapi({ description: "Contact-card messages: the cards. Null for other types." }),
  template: z
    .union([OutboundTemplate, z.null()])
    .openapi({ description: "Template messages we sent: {name, language, components}. Null for other types (customers do not send templates)." }),
  reaction: z
    .union([MessageReaction, z.null()])
    .openapi({ description: "Reactions: the provider id of the message reacted to and the emoji. Null for other types." }),
  sticker: z.union([OutboundSticker, z.null()]).openapi({
    description:
      "Stickers we sent: {id} or {link} as sent. Null for other types, and for stickers customers send: those are files, in `media` (type sticker), as in message.received.",
  }),
};
