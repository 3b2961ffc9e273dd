/**
 * Outbound message content after validation (POST /messages, inbox, automations, broadcasts all
 * produce this). Field names are the public API's; provider adapters map them to each platform's body.
 * The types live with the provider port because the adapters consume them and ports import nothing
 * above them (ARCHITECTURE.md, imports point down only); the domain builds them.
 */
export type MediaType = "image" | "document" | "video" | "audio";

export interface MediaContent {
  type: MediaType;
  link?: string;
  id?: string;
  caption?: string;
  filename?: string;
}

interface ReplyButton {
  id: string;
  title: string;
}

interface ListRow {
  id: string;
  title: string;
  description?: string;
}

interface ListSection {
  title?: string;
  rows: ListRow[];
}

/** The header object (a string header is normalized to `{type: "text", text}`). */
export type InteractiveHeader =
  | { type: "text"; text: string }
  | { type: "image"; image: { link?: string; id?: string } }
  | { type: "video"; video: { link?: string; id?: string } }
  | { type: "document"; document: { link?: string; id?: string; filename?: string } };

export type InteractiveContent =
  | { type: "button"; body: string; header?: InteractiveHeader; footer?: string; buttons: ReplyButton[] }
  | { type: "list"; body: string; header?: Extract<InteractiveHeader, { type: "text" }>; footer?: string; button: string; sections: ListSection[] }
  | { type: "cta_url"; body: string; header?: InteractiveHeader; footer?: string; display_text: string; url: string }
  | { type: "flow"; body: string; header?: Extract<InteractiveHeader, { type: "text" }>; footer?: string; flow: FlowAction }
  | { type: "location_request_message"; body: string }
  | { type: "request_contact_info"; body: string };

/** An interactive Flow message's action: which provider flow to open, with which token, at which screen. */
export interface FlowAction {
  flow_id: string;
  flow_token: string;
  flow_cta: string;
  /** navigate: open `screen` with `data`; data_exchange: the flow's endpoint answers INIT. */
  flow_action: "navigate" | "data_exchange";
  screen?: string;
  data?: Record<string, unknown>;
}

export interface TemplateContent {
  id?: string;
  name?: string;
  language?: string;
  components?: Record<string, unknown>[];
}

export interface ContactCard {
  name: { formatted_name: string; first_name?: string; last_name?: string; middle_name?: string; suffix?: string; prefix?: string };
  birthday?: string;
  phones?: { phone?: string; type?: string; wa_id?: string }[];
  emails?: { email?: string; type?: string }[];
  urls?: { url?: string; type?: string }[];
  addresses?: { street?: string; city?: string; state?: string; zip?: string; country?: string; country_code?: string; type?: string }[];
  org?: { company?: string; department?: string; title?: string };
}

export interface LocationContent {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

export type OutboundContent =
  | { kind: "text"; text: string }
  | { kind: "template"; template: TemplateContent }
  | { kind: "media"; media: MediaContent }
  | { kind: "interactive"; interactive: InteractiveContent }
  | { kind: "reaction"; reaction: { message_id: string; emoji: string } }
  | { kind: "location"; location: LocationContent }
  | { kind: "contacts"; contacts: ContactCard[] }
  | { kind: "sticker"; sticker: { id?: string; link?: string } };

export interface OutboundMessage {
  content: OutboundContent;
  /** Provider message id of the message to quote. */
  replyTo?: string;
}
