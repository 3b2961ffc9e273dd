import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/simulator/http";

/**
 * Checks a Send API body for PLATFORM_B / PLATFORM_C: recipient.id; exactly one of message or
 * sender_action; message = text (PLATFORM_C ≤2000 characters, PLATFORM_B ≤1000 UTF-8 bytes) or one
 * attachment {type image|video|audio|file, payload {url | attachment_id}}; quick_replies ≤13 with
 * titles ≤20 and payloads ≤1000; react needs payload {message_id, reaction}, unreact {message_id}.
 * Returns the detail of the first problem or null.
 */
const SENDER_ACTIONS = ["typing_on", "typing_off", "mark_seen", "react", "unreact"] as const;
const ATTACHMENT_TYPES = ["image", "video", "audio", "file"];
const MESSAGING_TYPES = ["RESPONSE", "UPDATE", "MESSAGE_TAG"];

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

function quickReplies(value: unknown): string | null {
  if (!Array.isArray(value) || value.length === 0) return "Param message[quick_replies] must be a non-empty array.";
  if (value.length > 13) return "Param message[quick_replies] must have at most 13 items.";
  for (const [i, item] of value.entries()) {
    if (!isRecord(item)) return `Param message[quick_replies][${i}] must be an object.`;
    const type = typeof item.content_type === "string" ? item.content_type.toLowerCase() : "";
    if (type !== "text") continue; // user_phone_number / user_email need no title
    if (!nonEmpty(item.title) || Array.from(item.title).length > 20) return `Param message[quick_replies][${i}][title] must be 1 to 20 characters.`;
    if (!nonEmpty(item.payload) || item.payload.length > 1000) return `Param message[quick_replies][${i}][payload] must be 1 to 1000 characters.`;
  }
  return null;
}

function message(platform: ProviderPlatform, value: unknown): string | null {
  if (!isRecord(value)) return "Param message must be an object.";
  const hasText = value.text !== undefined;
  const hasAttachment = value.attachment !== undefined;
  if (hasText === hasAttachment) return "Param message must have exactly one of text or attachment.";
  if (hasText) {
    if (!nonEmpty(value.text)) return "Param message[text] must be a non-empty string.";
    if (platform === "PLATFORM_B" ? Buffer.byteLength(value.text, "utf8") > 1000 : Array.from(value.text).length > 2000) {
      return platform === "PLATFORM_B" ? "Param message[text] must be at most 1000 bytes." : "Param message[text] must be at most 2000 characters.";
    }
  } else {
    const attachment = value.attachment;
    if (!isRecord(attachment) || typeof attachment.type !== "string" || !ATTACHMENT_TYPES.includes(attachment.type)) {
      return `Param message[attachment][type] must be one of ${ATTACHMENT_TYPES.join(", ")}.`;
    }
    if (!isRecord(attachment.payload)) return "Param message[attachment][payload] is required.";
    const { url, attachment_id } = attachment.payload;
    if ((url === undefined) === (attachment_id === undefined)) return "Param message[attachment][payload] must have exactly one of url or attachment_id.";
    if (url !== undefined) {
      let ok = false;
      try {
        const parsed = new URL(String(url));
        ok = parsed.protocol === "https:" || parsed.protocol === "http:";
      } catch {
        ok = false;
      }
      if (!ok) return "Param message[attachment][payload][url] must be a valid URL.";
    }
  }
  if (value.quick_replies !== undefined) return quickReplies(value.quick_replies);
  return null;
}

export function validateMessengerBody(platform: ProviderPlatform, body: unknown): string | null {
  if (!isRecord(body)) return "The request body must be a JSON object.";
  if (!isRecord(body.recipient) || !nonEmpty(body.recipient.id)) return "Param recipient[id] is required.";
  const hasMessage = body.message !== undefined;
  const hasAction = body.sender_action !== undefined;
  if (hasMessage === hasAction) return "Exactly one of message or sender_action is required.";
  if (body.reply_to !== undefined && (!isRecord(body.reply_to) || !nonEmpty(body.reply_to.mid))) return "Param reply_to[mid] must be a non-empty string.";
  if (hasAction) {
    const action = typeof body.sender_action === "string" ? body.sender_action.toLowerCase() : "";
    if (!(SENDER_ACTIONS as readonly string[]).includes(action)) return `Param sender_action must be one of ${SENDER_ACTIONS.join(", ")}.`;
    if (action === "react" || action === "unreact") {
      if (!isRecord(body.payload) || !nonEmpty(body.payload.message_id)) return "Param payload[message_id] is required.";
      if (action === "react" && !nonEmpty(body.payload.reaction)) return "Param payload[reaction] is required.";
      if (action === "react" && platform === "PLATFORM_B" && body.payload.reaction !== "love") return "Param payload[reaction] must be love.";
    }
    return null;
  }
  if (body.messaging_type !== undefined && (typeof body.messaging_type !== "string" || !MESSAGING_TYPES.includes(body.messaging_type))) {
    return `Param messaging_type must be one of ${MESSAGING_TYPES.join(", ")}.`;
  }
  if (body.messaging_type === "MESSAGE_TAG" && !nonEmpty(body.tag)) return "Param tag is required when messaging_type is MESSAGE_TAG.";
  return message(platform, body.message);
}
