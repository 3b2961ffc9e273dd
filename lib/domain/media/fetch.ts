import { errorKind } from "@/lib/error-kind";
import { createHash } from "node:crypto";
import type { MediaRow } from "@/lib/db/schema/media";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { Settings } from "@/lib/domain/context";
import { providerChannelOf } from "@/lib/domain/messages/provider-send";
import { OutboundNetworkError, OutboundTimeoutError, SsrfError, safeRequest } from "@/lib/ports/net/safe-request";
import { isRecord } from "@/lib/json";

const FETCH_TIMEOUT_MS = 15_000;

/** Inbound size caps: the provider's own limits per type (PLATFORM_A), 25 MB attachments on B and C. */
const CAPS: Record<string, Record<string, number>> = {
  platform_a: { image: 5_242_880, audio: 16_777_216, video: 16_777_216, document: 104_857_600, sticker: 1_048_576 },
  platform_b: { image: 8_388_608, audio: 26_214_400, video: 26_214_400, document: 26_214_400, sticker: 8_388_608 },
  platform_c: { image: 26_214_400, audio: 26_214_400, video: 26_214_400, document: 26_214_400, sticker: 26_214_400 },
};

export function sizeCapOf(media: Pick<MediaRow, "provider" | "type">): number {
  return CAPS[media.provider]?.[media.type] ?? 26_214_400;
}

/** Why a fetch failed, and whether trying again can help. */
export class MediaFetchError extends errorKind("MediaFetchError") {
  constructor(
    readonly code: "too_large" | "content_type_mismatch" | "not_found" | "provider_error" | "network" | "blocked",
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "MediaFetchError";
  }
}

export interface FetchedMedia {
  bytes: Buffer;
  contentType: string;
  sha256: string;
}

/**
 * Downloads an inbound file: on PLATFORM_A the provider's media lookup (`GET /{media_id}`) then the
 * download with the channel's token; on B and C the attachment URL. Every request goes through the
 * SSRF guard, is time-bounded and size-capped, and the bytes must be the kind of file announced.
 */
export async function fetchInboundMedia(
  media: MediaRow,
  channel: ChannelRow,
  settings: Pick<Settings, "graphUrl" | "sandboxAccessToken">,
  request: typeof safeRequest = safeRequest,
): Promise<FetchedMedia> {
  const cap = sizeCapOf(media);
  let url = media.sourceUrl;
  const headers: Record<string, string> = {};
  if (media.provider === "platform_a") {
    if (!media.providerMediaId) throw new MediaFetchError("not_found", "No provider media id to fetch.", false);
    headers.authorization = `Bearer ${providerChannelOf(channel, settings).accessToken}`;
    const info = await get(request, `${settings.graphUrl.replace(/\/+$/, "")}/${encodeURIComponent(media.providerMediaId)}`, headers, 64 * 1024);
    const parsed: unknown = JSON.parse(info.toString("utf8"));
    if (!isRecord(parsed) || typeof parsed.url !== "string") throw new MediaFetchError("provider_error", "The provider's media lookup had no url.", true);
    if (typeof parsed.file_size === "number" && parsed.file_size > cap)
      throw new MediaFetchError("too_large", `The file is ${parsed.file_size} bytes; the cap for ${media.type} is ${cap}.`, false);
    url = parsed.url;
  }
  if (!url) throw new MediaFetchError("not_found", "No source URL to fetch.", false);
  const response = await request(url, { method: "GET", headers, timeoutMs: FETCH_TIMEOUT_MS, maxResponseBytes: cap + 1 }).catch(transportError);
  if (response.status === 404 || response.status === 410) throw new MediaFetchError("not_found", `The provider answered ${response.status}.`, false);
  if (response.status < 200 || response.status >= 300)
    throw new MediaFetchError("provider_error", `The provider answered ${response.status}.`, response.status >= 500 || response.status === 429);
  if (response.truncated || response.body.length > cap)
    throw new MediaFetchError("too_large", `The file is larger than the ${cap}-byte cap for ${media.type}.`, false);
  const contentType = (response.headers["content-type"] ?? media.mimeType ?? "application/octet-stream").split(";")[0]!.trim().toLowerCase();
  if (!matchesType(media.type, contentType)) throw new MediaFetchError("content_type_mismatch", `Announced ${media.type}, served ${contentType}.`, false);
  return { bytes: response.body, contentType, sha256: createHash("sha256").update(response.body).digest("hex") };
}

async function get(request: typeof safeRequest, url: string, headers: Record<string, string>, max: number): Promise<Buffer> {
  const response = await request(url, { method: "GET", headers, timeoutMs: FETCH_TIMEOUT_MS, maxResponseBytes: max }).catch(transportError);
  if (response.status === 404) throw new MediaFetchError("not_found", "The provider does not know this media id (it may have expired there).", false);
  if (response.status < 200 || response.status >= 300)
    throw new MediaFetchError("provider_error", `The provider's media lookup answered ${response.status}.`, response.status >= 500 || response.status === 429);
  return response.body;
}

function transportError(error: unknown): never {
  if (SsrfError.is(error)) throw new MediaFetchError("blocked", `Blocked address: ${error.reason}.`, false);
  if (OutboundTimeoutError.is(error) || OutboundNetworkError.is(error)) throw new MediaFetchError("network", error.message, true);
  throw error;
}

/** The served bytes must be the announced kind (documents may be anything). */
function matchesType(type: string, contentType: string): boolean {
  if (type === "document") return true;
  if (type === "sticker") return contentType.startsWith("image/");
  return contentType.startsWith(`${type}/`) || (type === "audio" && contentType === "application/ogg");
}
