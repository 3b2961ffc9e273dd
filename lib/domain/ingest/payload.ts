import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ConversationRow } from "@/lib/domain/conversations";
import type { ContactRow } from "@/lib/domain/contacts/identity";
import type { InboundMedia, InboundParty, NormalizedInboundMessage } from "./types";

/** What a message.received says: the stored message (or, for an edit or delete, the event's own id) and where it came from. */
export interface ReceivedPayloadInput {
  project: ProjectRow;
  channel: ChannelRow;
  conversation: ConversationRow;
  contact: ContactRow;
  from: InboundParty;
  messageId: string;
  message: NormalizedInboundMessage;
  /** Edits and deletes: the stored message they changed (the event has its own message_id). */
  storedMessageId?: string;
}

/** docs/spec/service-spec.md "message.received payload": every field of its table. */
export function messageReceivedPayload(args: ReceivedPayloadInput) {
  const { project, channel, conversation, contact, from, message, messageId } = args;
  // Every file of the delivery (B/C allow several attachments per message); `media` is the first.
  const files = message.attachments?.length ? message.attachments : message.media ? [message.media] : [];
  const assets = files.map((file) => mediaOf(file, messageId));
  const media = assets[0] ?? null;
  // contact_reference echoes the reference set on the contact; without one it is the contact id, so
  // the field is always a usable string (customer_reference is the backward-compatible alias).
  const reference = contact.referenceId ?? contact.id;
  return {
    agent_id: project.id,
    organization_id: project.organizationId,
    channel_id: channel.id,
    conversation_id: conversation.id,
    contact_id: contact.id,
    from: from.address ? `+${from.address}` : null,
    user_id: from.user_id ?? contact.userId ?? contact.id,
    ...(from.parent_user_id ? { parent_user_id: from.parent_user_id } : {}),
    ...(from.username ? { username: from.username } : {}),
    text: message.type === "unsupported" ? null : message.text,
    message_id: args.messageId,
    type: message.type,
    ai_handoff: {
      status: conversation.handoffStatus,
      reason: conversation.handoffReason,
      handoff_at: conversation.handoffAt?.toISOString() ?? null,
      is_on_hold: conversation.handoffStatus === "HUMAN_ACTIVE",
    },
    messages: [messageItem(message, messageId)],
    assets,
    media,
    location: message.location
      ? {
          latitude: message.location.latitude,
          longitude: message.location.longitude,
          ...(message.location.name ? { name: message.location.name } : {}),
          ...(message.location.address ? { address: message.location.address } : {}),
        }
      : null,
    contact_reference: reference,
    customer_reference: reference,
    metadata: {
      platform: channel.platform,
      provider_message_id: message.id,
      received_at: message.received_at,
      display_phone_number: channel.phoneNumber,
      ...(from.name ? { profile_name: from.name } : {}),
      ...(message.referral ? { referral: message.referral } : {}),
      ...(args.storedMessageId ? { stored_message_id: args.storedMessageId } : {}),
    },
  };
}

function messageItem(message: NormalizedInboundMessage, messageId: string) {
  return {
    id: message.id,
    type: message.type,
    text: message.type === "unsupported" ? null : message.text,
    received_at: message.received_at,
    media: message.media ? mediaOf(message.media, messageId) : null,
    location: message.location,
    interactive: message.interactive,
    replied_to: message.replied_to,
    ...(message.contacts ? { contacts: message.contacts } : {}),
    ...(message.system ? { system: message.system } : {}),
    ...(message.unsupported ? { unsupported: message.unsupported } : {}),
    ...(message.revoke ? { revoke: message.revoke } : {}),
    ...(message.edit ? { edit: message.edit } : {}),
    ...(message.reaction ? { reaction: message.reaction } : {}),
  };
}

/**
 * The media fields of the spec (Message.media / Inbound media) for one file of a message; message_id
 * is the service's message id. Until the media cache stores the file, it is announced but not yet
 * available: url null, status unavailable.
 */
export function mediaOf(m: InboundMedia, messageId: string) {
  return {
    id: null as string | null,
    message_id: messageId,
    type: m.type,
    url: null as string | null,
    expires_at: null as string | null,
    mime_type: m.mime_type,
    file_name: m.file_name,
    file_size: null as number | null,
    platform_a_media_id: m.provider === "platform_a" ? m.provider_media_id : null,
    provider: m.provider,
    provider_media_id: m.provider_media_id,
    accessible: false,
    status: "unavailable" as "available" | "unavailable" | "expired",
    access_policy: "signed_url",
    error_code: "not_cached" as string | null,
    // Replaced by the media cache's own object as soon as the file is registered for caching; it
    // stays only when ingest ran outside a job, where no caching could be scheduled.
    note: "Not cached: fetch it from the provider with the media id." as string | null,
    ...(m.caption ? { caption: m.caption } : {}),
    ...(m.voice !== undefined ? { voice: m.voice } : {}),
    ...(m.animated !== undefined ? { animated: m.animated } : {}),
  };
}
