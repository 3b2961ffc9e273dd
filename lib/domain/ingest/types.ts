import type { ContactCard } from "@/lib/ports/provider/outbound";
import type { ProviderPlatform } from "@/lib/ports/provider/types";

/** An inbound media file as the provider announced it (before caching). */
export interface InboundMedia {
  type: "image" | "audio" | "video" | "document" | "sticker";
  provider: "platform_a" | "platform_b" | "platform_c";
  /** PLATFORM_A media id; null when only a temporary source URL is known (B and C). */
  provider_media_id: string | null;
  /** B/C attachment URL (temporary, fetchable without headers). */
  source_url: string | null;
  mime_type: string | null;
  file_name: string | null;
  sha256: string | null;
  caption: string | null;
  /** Audio recorded as a voice note; sticker animated. */
  voice?: boolean;
  animated?: boolean;
}

export interface InboundInteractive {
  /** button_reply, list_reply, nfm_reply (Flow completion), button (template quick reply), quick_reply, postback. */
  type: string;
  id: string | null;
  title: string | null;
  description: string | null;
  /** Quick reply / postback payload on B and C, template button payload on A. */
  payload: string | null;
  /** nfm_reply only: the parsed response_json of a completed Flow, and its flow_token. */
  response: Record<string, unknown> | null;
  flow_token: string | null;
}

/** One inbound message, normalised: the spec's message.received `messages[]` item plus what we store. */
export interface NormalizedInboundMessage {
  /** The provider's message id (wamid / mid): the dedupe key. */
  id: string;
  type:
    | "text"
    | "image"
    | "audio"
    | "video"
    | "document"
    | "sticker"
    | "location"
    | "contacts"
    | "system"
    | "interactive"
    | "unsupported"
    | "revoke"
    | "edit"
    | "reaction";
  text: string | null;
  /** ISO 8601 from the provider's own timestamp (the 24-hour window is measured from it). */
  received_at: string;
  media: InboundMedia | null;
  location: { latitude: number; longitude: number; name: string | null; address: string | null; url: string | null } | null;
  interactive: InboundInteractive | null;
  replied_to: { message_id: string; from: string | null } | null;
  contacts?: ContactCard[];
  system?: { type: string; body: string | null; wa_id?: string | null; user_id?: string | null };
  unsupported?: { type: string; raw_type: string; errors: { code: number; title: string; message: string; error_data: unknown }[] };
  revoke?: { original_message_id: string };
  edit?: { original_message_id: string; message: { type: string; text: { body: string } } };
  reaction?: { message_id: string; emoji: string };
  /** Click-to-chat ad / referral data when present. */
  referral?: Record<string, unknown>;
  /**
   * Every media file of the message, in provider order, when it carried more than one (B and C allow
   * several attachments per message; `media` is then the first). Absent for single-media messages.
   */
  attachments?: InboundMedia[];
}

/** Who sent (or, for echoes, received) a message. */
export interface InboundParty {
  /** E.164 digits (wa_id / phone) on PLATFORM_A; null when known only by username / user id. */
  address: string | null;
  /** Business-scoped user id (PLATFORM_A) or platform-scoped id (IGSID / PSID on B and C). */
  user_id: string | null;
  parent_user_id: string | null;
  username: string | null;
  name: string | null;
}

interface Base {
  platform: ProviderPlatform;
  /** Our channel's provider id the payload was addressed to: phone_number_id, account id or page id. */
  senderId: string;
}

export type InboundEvent =
  | (Base & { kind: "message"; from: InboundParty; message: NormalizedInboundMessage })
  /** Sent from the business's own app (coexistence / page inbox echoes): update stored state only. */
  | (Base & { kind: "echo"; to: InboundParty; message: NormalizedInboundMessage })
  | (Base & {
      kind: "status";
      platform_message_id: string;
      status: "sent" | "delivered" | "read" | "failed" | "deleted";
      timestamp: string;
      recipient_id: string | null;
      recipient_user_id: string | null;
      errors: { code: number; title: string; message: string | null; error_data: unknown; href?: string | null }[];
      /** The original status item, kept for message.status payloads. */
      raw: Record<string, unknown>;
    })
  | (Base & {
      kind: "call";
      /** "call" for calls items, "status" for call statuses items (docs/spec/service-spec.md: call.event payload.kind). */
      call_kind: "call" | "status";
      call_id: string;
      event: string;
      timestamp: string;
      /** The original item, SDP and connection data included. */
      call: Record<string, unknown>;
    })
  | (Base & { kind: "identity_change"; previous: InboundParty; current: InboundParty; timestamp: string })
  /** The provider's flows webhook; senderId is the business account id (the change has no phone number). */
  | (Base & { kind: "flow_status"; flow_id: string; old_status: string | null; new_status: string; message: string | null })
  /** The provider's template review webhook; senderId is the business account id, like flow_status. */
  | (Base & { kind: "template_status"; template_id: string; event: string; reason: string | null });
