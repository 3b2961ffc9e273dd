import { Readable } from "node:stream";
import { API_VERSION } from "@/lib/config";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { MediaRow } from "@/lib/db/schema";
import { authorizeMediaDownload } from "@/lib/domain/media/download";
import { StorageRangeError, type StoredObject, type StoredObjectInfo } from "@/lib/ports/storage";
import type { Runtime } from "@/lib/server/runtime";
import { errorResponse, handlerHeaders, json } from "./respond";

/**
 * `GET|HEAD /api/v1/media/{id}/content?token=...`: the signed download of a cached inbound media file
 * (docs/spec/decisions.md "Addresses": the signed media download). It answers bytes, not JSON, so it is not a defineRoute
 * operation but a byte route of the same table (lib/api/routes/media.ts). It is still a handler
 * response: Svc-Version and Request-Id on every answer, JSON error bodies, the same Svc-Version
 * request check. No API key is read or needed; the token is the authorization
 * (lib/domain/media/download.ts).
 *
 * Answers (docs: the report of issue 5, point 3):
 *  200 whole file; 206 one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) with Content-Range;
 *  304 If-None-Match hit; 416 unsatisfiable range with `Content-Range: bytes * /size`;
 *  403 forbidden (reason missing_token | invalid_token | expired_token); 404 not_found when the file is
 *  gone (retention, caching failure, deleted object). Several ranges in one header: the whole file
 *  (200), as many servers do; a Range of another unit or malformed syntax is ignored likewise
 *  (RFC 9110 §14.2 lets a server ignore Range).
 */
/** Inline for passive types a browser shows safely; everything else (documents, SVG, HTML...) downloads. */
const INLINE_TYPES = /^(image\/(jpeg|png|gif|webp|avif|bmp|heic|heif)|audio\/[\w.+-]+|video\/[\w.+-]+|text\/plain)$/i;
/** Served files are customer content on our origin: no scripts, no plugins, no sniffing, no referrer leak of the token. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const MIME_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[\x20-\x7e]*)?$/i;
const EXTENSIONS: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/webp": ".webp",
  "image/gif": ".gif",
  "video/mp4": ".mp4",
  "video/3gpp": ".3gp",
  "audio/ogg": ".ogg",
  "audio/mpeg": ".mp3",
  "audio/mp4": ".m4a",
  "audio/aac": ".aac",
  "audio/amr": ".amr",
  "application/pdf": ".pdf",
  "text/plain": ".txt",
};

export async function serveMediaContent(request: Request, mediaId: string, runtime: Runtime): Promise<Response> {
  const requestId = newId("request");
  const headers = handlerHeaders(requestId);
  try {
    const requestedVersion = request.headers.get("svc-version");
    if (requestedVersion !== null && requestedVersion !== API_VERSION) {
      throw new SvcError("invalid_api_version", `Svc-Version '${requestedVersion}' is not supported. Supported: ${API_VERSION}.`, {
        supported_versions: [API_VERSION],
      });
    }
    const now = runtime.ports.clock.now();
    const token = new URL(request.url).searchParams.get("token");
    const { media, tokenExpiresAt } = await authorizeMediaDownload(runtime.database.db, mediaId, token, now);
    const storage = runtime.ports.storage;
    const key = media.storageKey;
    const etag = media.sha256 && /^[0-9a-f]{64}$/i.test(media.sha256) ? `"${media.sha256.toLowerCase()}"` : null;
    const lastModified = media.cachedAt ? media.cachedAt.toUTCString() : null;
    const cacheUntil = Math.min(tokenExpiresAt.getTime(), media.expiresAt?.getTime() ?? Infinity);
    const fixed = (info: StoredObjectInfo): Record<string, string> => ({
      ...headers,
      ...representationHeaders(media, info, etag, lastModified),
      "Cache-Control": `private, max-age=${Math.max(0, Math.floor((cacheUntil - now.getTime()) / 1000))}`,
    });
    const gone = () => new SvcError("not_found", `Media file '${media.id}' is no longer stored.`);

    const isHead = request.method.toUpperCase() === "HEAD";
    if (isHead || (etag && ifNoneMatchHits(request.headers.get("if-none-match"), etag))) {
      const info = await storage.stat(key);
      if (!info) throw gone();
      if (!isHead) return new Response(null, { status: 304, headers: fixed(info) });
      return new Response(null, { status: 200, headers: { ...fixed(info), "Content-Length": String(info.size) } });
    }

    let wanted = parseRange(request.headers.get("range"));
    if (wanted.kind !== "whole" && !ifRangeHolds(request.headers.get("if-range"), etag, lastModified)) wanted = { kind: "whole" };

    let object: StoredObject | null;
    try {
      if (wanted.kind === "suffix") {
        // The port takes explicit starts only: resolve `bytes=-n` against the current size.
        const info = await storage.stat(key);
        if (!info) throw gone();
        if (wanted.length === 0 || info.size === 0) return unsatisfiable(headers, info.size);
        object = await storage.get(key, { start: Math.max(0, info.size - wanted.length) });
      } else {
        object = await storage.get(key, wanted.kind === "from" ? { start: wanted.start, end: wanted.end } : undefined);
      }
    } catch (error) {
      if (StorageRangeError.is(error)) return unsatisfiable(headers, error.size);
      throw error;
    }
    if (!object) throw gone();

    const body = Readable.toWeb(object.body) as unknown as ReadableStream<Uint8Array>;
    const out = { ...fixed(object), "Content-Length": String(object.length) };
    if (!object.range) return new Response(body, { status: 200, headers: out });
    return new Response(body, { status: 206, headers: { ...out, "Content-Range": `bytes ${object.range.start}-${object.range.end}/${object.size}` } });
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}

function unsatisfiable(headers: Record<string, string>, size: number): Response {
  return json(
    416,
    {
      error: "range_not_satisfiable",
      message: `The requested range is not satisfiable: the file has ${size} bytes (valid byte positions 0 to ${Math.max(0, size - 1)}).`,
    },
    { ...headers, "Content-Range": `bytes */${size}`, "Accept-Ranges": "bytes" },
  );
}

function representationHeaders(media: MediaRow, info: StoredObjectInfo, etag: string | null, lastModified: string | null): Record<string, string> {
  const contentType = media.mimeType && MIME_TYPE.test(media.mimeType) ? media.mimeType : info.contentType || "application/octet-stream";
  const essence = contentType.split(";")[0]!.trim().toLowerCase();
  const out: Record<string, string> = {
    "Content-Type": contentType,
    "Content-Disposition": contentDisposition(INLINE_TYPES.test(essence) ? "inline" : "attachment", media.fileName, `${media.id}${EXTENSIONS[essence] ?? ""}`),
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
  };
  if (etag) out.ETag = etag;
  if (lastModified) out["Last-Modified"] = lastModified;
  return out;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
const UNSAFE_IN_FILE_NAME = /[\u0000-\u001f\u007f-\u009f/\\]/g;

/**
 * RFC 6266 Content-Disposition: `filename="<ASCII fallback>"` always, plus `filename*=UTF-8''<RFC 5987
 * percent-encoding>` when the name is not plain ASCII. Path separators and control characters are
 * replaced, so a file name can never name a folder or break the header.
 */
export function contentDisposition(disposition: "inline" | "attachment", fileName: string | null, fallbackName: string): string {
  const cleaned = [...(fileName ?? "").normalize("NFC").replace(UNSAFE_IN_FILE_NAME, "_").trim()].slice(0, 240).join("");
  const name = cleaned.replace(/^\.+$/, "") || fallbackName;
  const ascii = name.replace(/[^\x20-\x7e]|["%\\]/g, "_");
  if (ascii === name) return `${disposition}; filename="${ascii}"`;
  const extended = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${extended}`;
}

type RangeRequest = { kind: "whole" } | { kind: "from"; start: number; end?: number } | { kind: "suffix"; length: number };

/**
 * One `bytes=` range, or "whole" for no Range, another unit, malformed syntax (incl. last < first)
 * or several ranges. Positions too large to be exact are clamped: a start past any real file still
 * gets 416, an end or suffix past it just means "to the end" / "the whole file".
 */
export function parseRange(header: string | null): RangeRequest {
  if (!header) return { kind: "whole" };
  const match = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!match) return { kind: "whole" };
  const specs = match[1]!
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (specs.length !== 1) return { kind: "whole" };
  const spec = specs[0]!;
  const big = (digits: string) => Math.min(Number(digits), Number.MAX_SAFE_INTEGER);
  const fromTo = /^(\d+)\s*-\s*(\d*)$/.exec(spec);
  if (fromTo) {
    const start = big(fromTo[1]!);
    if (fromTo[2] === "") return { kind: "from", start };
    const end = big(fromTo[2]!);
    return end < start ? { kind: "whole" } : { kind: "from", start, end };
  }
  const suffix = /^-\s*(\d+)$/.exec(spec);
  if (suffix) return { kind: "suffix", length: big(suffix[1]!) };
  return { kind: "whole" };
}

function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/** If-Range (RFC 9110 §13.1.5): the range applies only while the validator still matches (strong compare). */
function ifRangeHolds(header: string | null, etag: string | null, lastModified: string | null): boolean {
  if (!header) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith("W/")) return etag !== null && value === etag;
  return lastModified !== null && value === lastModified;
}
