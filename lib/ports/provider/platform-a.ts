import type { FlowAction, InteractiveContent, InteractiveHeader, OutboundMessage } from "@/lib/ports/provider/outbound";
import { graphRequest, unsupportedContent, type GraphClientOptions } from "@/lib/ports/provider/graph-http";
import { ProviderError, type ProviderChannel } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/json";
import type { AdapterOptions } from "@/lib/ports/provider/graph-http";

/**
 * PLATFORM_A adapter: the provider's Cloud API. One call, `POST {graphUrl}/{phone_number_id}/messages`,
 * body `{messaging_product:"whatsapp", recipient_type:"individual", to, type, <type>:{...}, context?}`,
 * answer `{messaging_product, contacts:[{input, wa_id}], messages:[{id}]}`.
 */
export type JsonObject = { [key: string]: unknown };

const URL_PATTERN = /\b(?:https?:\/\/|www\.)\S+/i;

function header(value: InteractiveHeader): JsonObject {
  switch (value.type) {
    case "text":
      return { type: "text", text: value.text ?? "" };
    case "image":
      return { type: "image", image: mediaRef(value.image ?? {}) };
    case "video":
      return { type: "video", video: mediaRef(value.video ?? {}) };
    case "document": {
      const doc: JsonObject = mediaRef(value.document ?? {});
      if (value.document?.filename) doc.filename = value.document.filename;
      return { type: "document", document: doc };
    }
  }
}

/** `{id}` wins over `{link}`: the provider wants exactly one of them. */
function mediaRef(value: { id?: string; link?: string }): JsonObject {
  return value.id ? { id: value.id } : { link: value.link ?? "" };
}

function withFrame(base: JsonObject, value: { header?: InteractiveHeader; footer?: string }): JsonObject {
  const out: JsonObject = { type: base.type };
  if (value.header) out.header = header(value.header);
  for (const [key, v] of Object.entries(base)) if (key !== "type") out[key] = v;
  if (value.footer) out.footer = { text: value.footer };
  return out;
}

/**
 * An interactive Flow message's action parameters (message version "3", the only one the provider
 * takes). navigate opens `screen` with `data` (the provider wants a non-empty object or none);
 * data_exchange carries no payload: the flow's endpoint answers INIT instead.
 */
function flowParameters(flow: FlowAction): JsonObject {
  const parameters: JsonObject = {
    flow_message_version: "3",
    flow_token: flow.flow_token,
    flow_id: flow.flow_id,
    flow_cta: flow.flow_cta,
    flow_action: flow.flow_action,
  };
  if (flow.flow_action === "navigate") {
    if (!flow.screen) throw unsupportedContent("A navigate Flow message needs the screen to open");
    const payload: JsonObject = { screen: flow.screen };
    if (flow.data && Object.keys(flow.data).length > 0) payload.data = flow.data;
    parameters.flow_action_payload = payload;
  }
  return parameters;
}

function interactive(value: InteractiveContent): JsonObject {
  switch (value.type) {
    case "button":
      return withFrame(
        {
          type: "button",
          body: { text: value.body },
          action: { buttons: value.buttons.map((b) => ({ type: "reply", reply: { id: b.id, title: b.title } })) },
        },
        value,
      );
    case "list":
      return withFrame(
        {
          type: "list",
          body: { text: value.body },
          action: {
            button: value.button,
            sections: value.sections.map((section) => {
              const out: JsonObject = {};
              if (section.title) out.title = section.title;
              out.rows = section.rows.map((row) => {
                const r: JsonObject = { id: row.id, title: row.title };
                if (row.description) r.description = row.description;
                return r;
              });
              return out;
            }),
          },
        },
        value,
      );
    case "cta_url":
      return withFrame(
        {
          type: "cta_url",
          body: { text: value.body },
          action: { name: "cta_url", parameters: { display_text: value.display_text, url: value.url } },
        },
        value,
      );
    case "flow":
      return withFrame({ type: "flow", body: { text: value.body }, action: { name: "flow", parameters: flowParameters(value.flow) } }, value);
    case "location_request_message":
      return { type: "location_request_message", body: { text: value.body }, action: { name: "send_location" } };
    case "request_contact_info":
      // The provider has this interactive type (added with business-scoped user ids / usernames):
      // a body plus a provider-rendered "share contact info" button, answered by an inbound
      // `contacts` message. Its action carries only the name, like send_location.
      return { type: "request_contact_info", body: { text: value.body }, action: { name: "request_contact_info" } };
  }
}

/** The Cloud API request body for one outbound message. Pure; throws ProviderError for content it cannot express. */
export function toPlatformABody(to: string, message: OutboundMessage): JsonObject {
  const body: JsonObject = { messaging_product: "whatsapp", recipient_type: "individual", to };
  const content = message.content;
  switch (content.kind) {
    case "text": {
      const text: JsonObject = { body: content.text };
      if (URL_PATTERN.test(content.text)) text.preview_url = true;
      body.type = "text";
      body.text = text;
      break;
    }
    case "media": {
      const media = content.media;
      const object: JsonObject = mediaRef(media);
      // Audio takes no caption on the provider; filename exists only on documents.
      if (media.caption && media.type !== "audio") object.caption = media.caption;
      if (media.filename && media.type === "document") object.filename = media.filename;
      body.type = media.type;
      body[media.type] = object;
      break;
    }
    case "sticker":
      body.type = "sticker";
      body.sticker = mediaRef(content.sticker);
      break;
    case "location": {
      const location: JsonObject = { latitude: content.location.latitude, longitude: content.location.longitude };
      if (content.location.name) location.name = content.location.name;
      if (content.location.address) location.address = content.location.address;
      body.type = "location";
      body.location = location;
      break;
    }
    case "contacts":
      body.type = "contacts";
      body.contacts = content.contacts;
      break;
    case "interactive":
      body.type = "interactive";
      body.interactive = interactive(content.interactive);
      break;
    case "reaction":
      body.type = "reaction";
      body.reaction = { message_id: content.reaction.message_id, emoji: content.reaction.emoji };
      break;
    case "template": {
      const template = content.template;
      if (!template.name || !template.language) {
        throw unsupportedContent("A PLATFORM_A template send needs the template's name and language");
      }
      const object: JsonObject = { name: template.name, language: { code: template.language } };
      if (template.components && template.components.length > 0) object.components = template.components;
      body.type = "template";
      body.template = object;
      break;
    }
  }
  // A reaction already names its message; every other type quotes replyTo through context.
  if (message.replyTo && content.kind !== "reaction") body.context = { message_id: message.replyTo };
  return body;
}

/** Sends through the Cloud API and returns the wamid. */
export async function sendPlatformA(
  options: AdapterOptions,
  channel: ProviderChannel,
  to: string,
  message: OutboundMessage,
): Promise<{ platformMessageId: string }> {
  const client: GraphClientOptions = {
    baseUrl: options.graphUrl,
    accessToken: channel.accessToken,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    now: options.now,
  };
  const answer = await graphRequest(client, {
    method: "POST",
    path: `${encodeURIComponent(channel.senderId)}/messages`,
    body: toPlatformABody(to, message),
  });
  const messages = isRecord(answer) && Array.isArray(answer.messages) ? answer.messages : [];
  const first: unknown = messages[0];
  const id = isRecord(first) && typeof first.id === "string" ? first.id : null;
  if (!id) throw missingId(answer, options.now?.() ?? new Date());
  return { platformMessageId: id };
}

export function missingId(answer: unknown, at: Date): ProviderError {
  return new ProviderError(
    {
      provider: "provider",
      summary: "The provider accepted the send but returned no message id",
      code: "invalid_response",
      subcode: null,
      type: null,
      title: null,
      message: JSON.stringify(answer).slice(0, 500),
      fbtrace_id: null,
      http_status: 200,
      occurred_at: at.toISOString(),
    },
    false,
  );
}
