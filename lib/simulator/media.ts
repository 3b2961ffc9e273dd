import { createHash } from "node:crypto";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { SimulatorContext } from "@/lib/simulator/context";
import { bearerToken, graphError, invalidToken, json, simulatorError } from "@/lib/simulator/http";
import { mediaId } from "@/lib/simulator/ids";
import type { StoredMedia } from "@/lib/simulator/state";

/**
 * Media the simulated customer sends.
 *  - PLATFORM_A announces a media id; the service resolves it with `GET /graph/{media_id}` (Bearer)
 *    → {messaging_product, url, mime_type, sha256, file_size, id}, then downloads `url`
 *    (`/media-download/{id}`, Bearer) – the provider's two-step retrieval.
 *  - PLATFORM_B / PLATFORM_C announce a plain URL that needs no headers: `/cdn/{id}`.
 * Bytes come from `POST /customer/media`, from a link the customer names, or a small placeholder.
 */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

const DEFAULT_MIME: Record<string, string> = {
  image: "image/png",
  audio: "audio/ogg",
  video: "video/mp4",
  document: "application/pdf",
  sticker: "image/webp",
};

// A 1x1 transparent PNG, so a placeholder image is a real image.
const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

function storeMedia(ctx: SimulatorContext, bytes: Buffer, mimeType: string, filename: string | null): StoredMedia {
  const item: StoredMedia = {
    id: mediaId(),
    bytes,
    mime_type: mimeType,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    file_size: bytes.length,
    filename,
  };
  ctx.state.putMedia(item);
  return item;
}

export interface MediaInput {
  mime_type?: string;
  link?: string;
  id?: string;
  filename?: string;
}

export type ResolvedMedia = { ok: true; media: StoredMedia | null; url: string } | { ok: false; error: string };

/** Our own media URL (`…/cdn/{id}` or `…/media-download/{id}`) names a stored item: use it without fetching. */
function ownMedia(ctx: SimulatorContext, link: string): StoredMedia | undefined {
  const match = /\/(?:cdn|media-download)\/([0-9]+)(?:[?#].*)?$/.exec(link);
  return match?.[1] ? ctx.state.getMedia(match[1]) : undefined;
}

async function fetchLink(ctx: SimulatorContext, link: string, fallbackMime: string, filename: string | null): Promise<StoredMedia | string> {
  try {
    const response = await fetch(link, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return `Fetching ${link} answered HTTP ${response.status}`;
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > MAX_UPLOAD_BYTES) return `${link} is larger than ${MAX_UPLOAD_BYTES} bytes`;
    const mime = response.headers.get("content-type")?.split(";")[0]?.trim() || fallbackMime;
    return storeMedia(ctx, bytes, mime, filename);
  } catch (error) {
    return `Could not fetch ${link}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Turns the customer's media description into what the platform's webhook carries: a stored item
 * (PLATFORM_A needs its id, sha256 and mime type) and a URL (PLATFORM_B/C attachments).
 */
export async function resolveCustomerMedia(
  ctx: SimulatorContext,
  platform: ProviderPlatform,
  type: string,
  input: MediaInput,
  base: string,
): Promise<ResolvedMedia> {
  const mime = input.mime_type ?? DEFAULT_MIME[type] ?? "application/octet-stream";
  const filename = input.filename ?? null;
  let media: StoredMedia | null = null;
  if (input.id) {
    media = ctx.state.getMedia(input.id) ?? null;
    if (!media) return { ok: false, error: `Unknown media id ${input.id}; upload it first with POST /customer/media` };
  } else if (input.link) {
    const own = ownMedia(ctx, input.link);
    if (own) media = own;
    else if (platform !== "PLATFORM_A") return { ok: true, media: null, url: input.link };
    else {
      const fetched = await fetchLink(ctx, input.link, mime, filename);
      if (typeof fetched === "string") return { ok: false, error: fetched };
      media = fetched;
    }
  } else {
    const bytes = type === "image" && mime === "image/png" ? PIXEL_PNG : Buffer.from(`svc simulator placeholder ${type}\n`);
    media = storeMedia(ctx, bytes, mime, filename);
  }
  return { ok: true, media, url: `${base}/cdn/${media.id}` };
}

function bytesResponse(item: StoredMedia): Response {
  const headers: Record<string, string> = {
    "Content-Type": item.mime_type,
    "Content-Length": String(item.file_size),
  };
  if (item.filename) headers["Content-Disposition"] = `attachment; filename="${item.filename.replace(/["\\\r\n]/g, "_")}"`;
  return new Response(new Uint8Array(item.bytes), { status: 200, headers });
}

/** GET /graph/{media_id}: the media's metadata and its (Bearer-protected) download URL. */
export function getMediaInfo(ctx: SimulatorContext, request: Request, path: string, id: string): Response {
  if (!bearerToken(request)) return invalidToken();
  const item = ctx.state.getMedia(id);
  if (!item) {
    return graphError({
      status: 400,
      code: 100,
      subcode: 33,
      type: "GraphMethodException",
      message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    });
  }
  return json(200, {
    messaging_product: "whatsapp",
    url: `${ctx.publicBase(request, path)}/media-download/${item.id}`,
    mime_type: item.mime_type,
    sha256: item.sha256,
    file_size: item.file_size,
    id: item.id,
  });
}

/** GET /media-download/{id}: the bytes, Bearer required (as the provider's media URLs are). */
export function downloadMedia(ctx: SimulatorContext, request: Request, id: string): Response {
  if (!bearerToken(request)) return invalidToken();
  const item = ctx.state.getMedia(id);
  return item ? bytesResponse(item) : simulatorError(404, `Unknown media ${id}`);
}

/** GET /cdn/{id}: the bytes with no authentication (PLATFORM_B/C attachment URLs). */
export function cdnMedia(ctx: SimulatorContext, id: string): Response {
  const item = ctx.state.getMedia(id);
  return item ? bytesResponse(item) : simulatorError(404, `Unknown media ${id}`);
}

/** POST /customer/media: raw bytes + Content-Type (optional ?filename=) → {id, url, mime_type, sha256, file_size}. */
export async function uploadMedia(ctx: SimulatorContext, request: Request, path: string): Promise<Response> {
  const bytes = Buffer.from(await request.arrayBuffer());
  if (bytes.length === 0) return simulatorError(400, "Send the file's bytes as the request body");
  if (bytes.length > MAX_UPLOAD_BYTES) return simulatorError(413, `Uploads are limited to ${MAX_UPLOAD_BYTES} bytes`);
  const mime = request.headers.get("content-type")?.split(";")[0]?.trim() || "application/octet-stream";
  const filename = new URL(request.url).searchParams.get("filename");
  const item = storeMedia(ctx, bytes, mime, filename);
  return json(200, {
    id: item.id,
    url: `${ctx.publicBase(request, path)}/cdn/${item.id}`,
    mime_type: item.mime_type,
    sha256: item.sha256,
    file_size: item.file_size,
  });
}
