import type { InteractiveContent, OutboundMessage } from "@/lib/ports/provider/outbound";
import { graphRequest, unsupportedContent, type GraphClientOptions } from "@/lib/ports/provider/graph-http";
import { missingId, type JsonObject } from "@/lib/ports/provider/platform-a";
import type { ProviderChannel, ProviderPlatform } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/json";
import type { AdapterOptions } from "@/lib/ports/provider/graph-http";

/**
 * PLATFORM_B (Instagram-style) and PLATFORM_C (Messenger-style page) adapter: the Send API,
 * `POST {graphUrl}/{account_id | page_id}/messages` with
 *   {recipient:{id}, messaging_type:"RESPONSE", message:{text} | {attachment:{type, payload:{url, is_reusable}}},
 *    message.quick_replies?, reply_to?:{mid}}
 * or, for reactions, {recipient:{id}, sender_action:"react"|"unreact", payload:{message_id, reaction?}}.
 * Answer: {recipient_id, message_id}.
 *
 * Neither platform has reply buttons or lists: both become text with quick replies (payload = the
 * button / row id, title cut to the 20 characters a quick reply allows, at most 13 of them).
 * Templates, locations, contact cards, cta_url, location and contact requests have no Send API form
 * here: the domain answers 422 before a send, and the adapter refuses them as a final ProviderError.
 */
export type MessengerPlatform = Extract<ProviderPlatform, "PLATFORM_B" | "PLATFORM_C">;

const MAX_QUICK_REPLIES = 13;
const QUICK_REPLY_TITLE_MAX = 20;

const ATTACHMENT_TYPE = { image: "image", video: "video", audio: "audio", document: "file" } as const;

function quickReplies(items: { id: string; title: string }[]): JsonObject[] {
  if (items.length === 0) throw unsupportedContent("Quick replies need at least one option");
  if (items.length > MAX_QUICK_REPLIES) {
    throw unsupportedContent(`At most ${MAX_QUICK_REPLIES} options can be offered as quick replies on this platform`);
  }
  return items.map((item) => ({
    content_type: "text",
    title: Array.from(item.title).slice(0, QUICK_REPLY_TITLE_MAX).join(""),
    payload: item.id,
  }));
}

function interactiveMessage(platform: MessengerPlatform, value: InteractiveContent): JsonObject {
  if (value.type !== "button" && value.type !== "list") {
    throw unsupportedContent(`Interactive ${value.type} messages are not supported on ${platform}`);
  }
  const parts: string[] = [];
  if (value.header?.type === "text" && value.header.text) parts.push(value.header.text);
  parts.push(value.body);
  if (value.footer) parts.push(value.footer);
  const options = value.type === "button" ? value.buttons : value.sections.flatMap((section) => section.rows);
  return { text: parts.join("\n\n"), quick_replies: quickReplies(options) };
}

/** The Send API request body for one outbound message. Pure; throws ProviderError for content it cannot express. */
export function toMessengerBody(platform: MessengerPlatform, to: string, message: OutboundMessage): JsonObject {
  const content = message.content;
  const recipient = { id: to };

  if (content.kind === "reaction") {
    const { message_id, emoji } = content.reaction;
    if (emoji === "") return { recipient, sender_action: "unreact", payload: { message_id } };
    // PLATFORM_C takes any emoji; PLATFORM_B documents a single reaction value, "love" (a heart),
    // so every emoji is sent as that heart there.
    const reaction = platform === "PLATFORM_B" ? "love" : emoji;
    return { recipient, sender_action: "react", payload: { message_id, reaction } };
  }

  let body: JsonObject;
  switch (content.kind) {
    case "text":
      body = { text: content.text };
      break;
    case "media": {
      const media = content.media;
      if (!media.link || media.id) throw unsupportedContent(`Media on ${platform} must be sent by link, not by id`);
      if (media.caption) throw unsupportedContent(`Media captions are not supported on ${platform}`);
      if (media.filename) throw unsupportedContent(`Media file names are not supported on ${platform}`);
      if (media.type === "document" && platform === "PLATFORM_B") {
        throw unsupportedContent("Documents are not supported on PLATFORM_B; send the link as text");
      }
      body = { attachment: { type: ATTACHMENT_TYPE[media.type], payload: { url: media.link, is_reusable: false } } };
      break;
    }
    case "sticker":
      if (!content.sticker.link || content.sticker.id) {
        throw unsupportedContent(`Stickers on ${platform} must be sent by link, not by id`);
      }
      body = { attachment: { type: "image", payload: { url: content.sticker.link, is_reusable: false } } };
      break;
    case "interactive":
      body = interactiveMessage(platform, content.interactive);
      break;
    case "template":
      throw unsupportedContent(`Templates are not supported on ${platform}`);
    case "location":
      throw unsupportedContent(`Location messages are not supported on ${platform}`);
    case "contacts":
      throw unsupportedContent(`Contact cards are not supported on ${platform}`);
  }

  const out: JsonObject = { recipient, messaging_type: "RESPONSE", message: body };
  // The Page Messages reference lists reply_to as a top-level parameter beside message.
  if (message.replyTo) out.reply_to = { mid: message.replyTo };
  return out;
}

/** Sends through the Send API and returns the mid. */
export async function sendMessenger(
  options: AdapterOptions,
  channel: ProviderChannel & { platform: MessengerPlatform },
  to: string,
  message: OutboundMessage,
): Promise<{ platformMessageId: string }> {
  const now = options.now ?? (() => new Date());
  const client: GraphClientOptions = {
    baseUrl: options.graphUrl,
    accessToken: channel.accessToken,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    now: options.now,
  };
  const body = toMessengerBody(channel.platform, to, message);
  const answer = await graphRequest(client, {
    method: "POST",
    path: `${encodeURIComponent(channel.senderId)}/messages`,
    body,
  });
  const id = isRecord(answer) && typeof answer.message_id === "string" ? answer.message_id : null;
  if (id) return { platformMessageId: id };
  if (message.content.kind === "reaction" && isRecord(answer) && typeof answer.recipient_id === "string") {
    // Sender actions are acknowledged with {recipient_id} only: a reaction is not a message of its own
    // there. Give it a stable local id so the row can still be stored.
    return { platformMessageId: `reaction.${message.content.reaction.message_id}.${now().getTime()}` };
  }
  throw missingId(answer, now());
}
