import { COMMON_HEADERS } from "@/lib/api/openapi";
import { serveMediaContent } from "@/lib/api/media-content";
import type { ByteRoute } from "@/lib/api/endpoint";
import { ErrorBody } from "@/lib/api/schemas/common";
import { z } from "@/lib/api/zod";

const error = (description: string) => ({ description, content: { "application/json": { schema: ErrorBody } } });
const bytes = { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } };

/**
 * The signed media download is public API (clients follow the `media.url` they are handed), so it is
 * in the table and in the OpenAPI document like every other operation; only its body is bytes.
 */
export const mediaRoutes: ByteRoute[] = [
  {
    answers: "bytes",
    method: "GET",
    head: true,
    path: "/media/{id}/content",
    operationId: "downloadMedia",
    summary: "Download a cached inbound media file through its signed URL",
    description:
      "No API key: the `token` query parameter of the URL handed out in `media.url` is the authorization (about 1 hour, never past retention). " +
      "Supports single byte ranges (206) and conditional requests (ETag).",
    tag: "Media",
    auth: "none",
    scope: null,
    audit: null,
    openapi: {
      request: {
        params: z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "med_01jd..." }) }),
        query: z.object({ token: z.string().openapi({ description: "The signed token from media.url." }) }),
      },
      responses: {
        200: { description: "The file.", headers: COMMON_HEADERS, content: bytes },
        206: { description: "The requested byte range.", headers: COMMON_HEADERS, content: bytes },
        304: { description: "Not modified (If-None-Match)." },
        400: error("Unsupported Svc-Version."),
        403: error("Missing, altered or expired token (forbidden)."),
        404: error("The file is not retained (expired, unavailable or unknown)."),
        416: error("The range cannot be satisfied (Content-Range: bytes */size)."),
      },
    },
    run: (request, params, runtime) => serveMediaContent(request, params.id!, runtime),
  },
];
