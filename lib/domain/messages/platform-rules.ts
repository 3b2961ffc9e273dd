/**
 * What each platform can send: the per-channel content rules of POST /messages (spec Rules 3 to 5),
 * checked after the request schema and before anything is stored or sent. Pure: no database.
 *
 * Decisions where the spec is silent (kept in docs/api-decisions.md):
 * - PLATFORM_B and PLATFORM_C send text, media (per the media table), interactive button and list
 *   (the adapters render them as quick replies; text headers and footers are folded into the text),
 *   and reactions (both send APIs have react/unreact sender actions). Templates are 422
 *   feature_unsupported_on_channel (docs/spec/decisions.md). Location and contact cards are 422
 *   feature_unsupported_on_channel: neither send API has such a message. Stickers are 422
 *   feature_unsupported_on_channel: PLATFORM_B can only send its fixed `like_heart` sticker and
 *   PLATFORM_C only its own sticker catalogue ids, neither of which the sticker field expresses.
 * - An interactive header with media (image, video, document) on PLATFORM_B/C is 422
 *   media_unsupported_on_channel: quick replies carry no media; send a media message first.
 * - Any other platform (SMS, PLATFORM_D, EMAIL, unknown): 422 feature_unsupported_on_channel for
 *   every content kind; POST /messages sends on PLATFORM_A, PLATFORM_B and PLATFORM_C channels only.
 * - When a message breaks several rules the first one found is reported: media type, then id, then
 *   caption, then filename.
 * Every error body carries `platform` and the offending `field` (dotted request path), and `supported`
 * (what the channel accepts instead along the same dimension) when there is such a list.
 */
import { SvcError } from "@/lib/errors";
import type { MediaContent, MediaType, OutboundContent, OutboundMessage } from "@/lib/ports/provider/outbound";

export const MESSAGING_PLATFORMS = ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const;
export type MessagingPlatform = (typeof MESSAGING_PLATFORMS)[number];

export type ContentKind = OutboundContent["kind"];
export type MediaLocator = "link" | "id";

/** Content kinds each platform can send. */
export const SUPPORTED_CONTENT: Readonly<Record<MessagingPlatform, readonly ContentKind[]>> = {
  PLATFORM_A: ["text", "template", "media", "interactive", "reaction", "location", "contacts", "sticker"],
  PLATFORM_B: ["text", "media", "interactive", "reaction"],
  PLATFORM_C: ["text", "media", "interactive", "reaction"],
};

/** Spec Rule 3: media types and locators per platform. */
export const MEDIA_SUPPORT: Readonly<
  Record<MessagingPlatform, { types: readonly MediaType[]; locators: readonly MediaLocator[]; captions: boolean; filenames: boolean }>
> = {
  PLATFORM_A: { types: ["image", "document", "video", "audio"], locators: ["link", "id"], captions: true, filenames: true },
  PLATFORM_B: { types: ["image", "video", "audio"], locators: ["link"], captions: false, filenames: false },
  PLATFORM_C: { types: ["image", "document", "video", "audio"], locators: ["link"], captions: false, filenames: false },
};

/** Spec Rule 3: provider size limits in bytes (PLATFORM_C has one attachment limit for every type). */
export const MEDIA_SIZE_LIMITS: Readonly<Record<MessagingPlatform, Readonly<Partial<Record<MediaType, number>>>>> = {
  PLATFORM_A: { image: 5_242_880, audio: 16_777_216, video: 16_777_216, document: 104_857_600 },
  PLATFORM_B: { image: 8_388_608, audio: 26_214_400, video: 26_214_400 },
  PLATFORM_C: { image: 26_214_400, audio: 26_214_400, video: 26_214_400, document: 26_214_400 },
};

/** Largest file of `type` the platform accepts, in bytes; null when it cannot send that type at all. */
export function mediaSizeLimit(platform: string, type: MediaType): number | null {
  return isMessagingPlatform(platform) ? (MEDIA_SIZE_LIMITS[platform][type] ?? null) : null;
}

/** Interactive types PLATFORM_A alone can send (spec Rule 5). */
const PLATFORM_A_ONLY_INTERACTIVE = ["cta_url", "location_request_message", "request_contact_info"] as const;
const PORTABLE_INTERACTIVE = ["button", "list"] as const;

function isMessagingPlatform(platform: string): platform is MessagingPlatform {
  return (MESSAGING_PLATFORMS as readonly string[]).includes(platform);
}

/** Throws a 422 SvcError when `platform` cannot send `message`; returns when it can. */
export function assertContentSupported(platform: MessagingPlatform | (string & {}), message: OutboundMessage): void {
  const content = message.content;
  if (!isMessagingPlatform(platform)) {
    throw new SvcError(
      "feature_unsupported_on_channel",
      `Messages cannot be sent on ${platform} channels through POST /messages. Send from a ${MESSAGING_PLATFORMS.join(", ")} channel instead.`,
      { platform, field: "channel_id", supported: [...MESSAGING_PLATFORMS] },
    );
  }
  if (content.kind === "reaction" && content.reaction.message_id === "") {
    throw new SvcError("invalid_request", "A reaction needs the provider id of the message it reacts to.", {
      issues: { "reaction.message_id": ["Required: the provider message id from message.received."] },
    });
  }
  if (platform === "PLATFORM_A") return;

  if (!SUPPORTED_CONTENT[platform].includes(content.kind)) throw unsupportedKind(platform, content.kind);
  if (content.kind === "media") assertMedia(platform, content.media);
  if (content.kind === "interactive") {
    const interactive = content.interactive;
    if ((PLATFORM_A_ONLY_INTERACTIVE as readonly string[]).includes(interactive.type)) {
      throw new SvcError(
        "interactive_type_unsupported_on_channel",
        `Interactive type '${interactive.type}' is available on PLATFORM_A channels only. On ${platform} send an interactive button or list${interactive.type === "cta_url" ? ", or the URL in a text message" : ""} instead.`,
        { platform, field: "interactive.type", supported: [...PORTABLE_INTERACTIVE] },
      );
    }
    if ((interactive.type === "button" || interactive.type === "list") && interactive.header && interactive.header.type !== "text") {
      throw new SvcError(
        "media_unsupported_on_channel",
        `${platform} interactive messages cannot carry a ${interactive.header.type} header. Send the ${interactive.header.type} as a media message first, then the interactive message with a text header or none instead.`,
        { platform, field: "interactive.header", supported: ["text"] },
      );
    }
  }
}

const KIND_ADVICE: Partial<Record<ContentKind, string>> = {
  template: "Templates are PLATFORM_A only; reply inside the 24-hour window with text, media or interactive content instead.",
  location: "Send the address or a map link as text instead.",
  contacts: "Send the contact details as text instead.",
  sticker: "Send the sticker image as media (type image, by link) instead.",
};

function unsupportedKind(platform: MessagingPlatform, kind: ContentKind): SvcError {
  const advice = KIND_ADVICE[kind] ?? `Send one of: ${SUPPORTED_CONTENT[platform].join(", ")}.`;
  return new SvcError("feature_unsupported_on_channel", `${platform} channels cannot send ${kind} messages. ${advice}`, {
    platform,
    field: kind,
    supported: [...SUPPORTED_CONTENT[platform]],
  });
}

function assertMedia(platform: MessagingPlatform, media: MediaContent): void {
  const support = MEDIA_SUPPORT[platform];
  const fail = (field: string, message: string, supported?: readonly string[]) =>
    new SvcError("media_unsupported_on_channel", message, { platform, field, ...(supported ? { supported: [...supported] } : {}) });

  if (!support.types.includes(media.type)) {
    const instead = media.type === "document" ? "Send a text message with an https link to the document instead." : `Send one of: ${support.types.join(", ")}.`;
    throw fail("media.type", `${platform} channels cannot send ${media.type} media. ${instead}`, support.types);
  }
  if (media.id !== undefined && !support.locators.includes("id")) {
    throw fail(
      "media.id",
      `${platform} channels send media by link only. Give media.link (an https URL the provider can fetch without custom headers) instead of media.id.`,
      support.locators,
    );
  }
  if (media.caption !== undefined && !support.captions) {
    throw fail(
      "media.caption",
      `${platform} channels do not send media captions. Remove media.caption and send the caption as a separate text message instead.`,
    );
  }
  if (media.filename !== undefined && !support.filenames) {
    throw fail("media.filename", `${platform} channels do not send file names. Remove media.filename; the recipient sees the file name from the link instead.`);
  }
}
