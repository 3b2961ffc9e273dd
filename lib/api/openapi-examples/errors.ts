import type { Example } from "./types";

/** What the generic error examples need to know about an operation (a subset of lib/api/route.ts Route). */
export interface ErrorExampleRoute {
  path: string;
  scope: string | null;
  body?: unknown;
}

const REQUEST_ID = "req_01jxq4r8a2q8s0u2w4y6a8c0e2";

/** The resource a path's {id} names, in the words domain code uses for not_found (notFound("channel", id)). */
const RESOURCE_BY_SEGMENT: Record<string, [noun: string, id: string]> = {
  projects: ["project", "proj_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  channels: ["channel", "ch_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  contacts: ["contact", "ct_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  conversations: ["conversation", "conv_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  messages: ["message", "msg_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  "webhook-deliveries": ["webhook delivery", "wd_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  flows: ["flow", "flow_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  functions: ["function", "fn_01jxq4zzzzzzzzzzzzzzzzzzzz"],
  templates: ["template", "tmpl_01jxq4zzzzzzzzzzzzzzzzzzzz"],
};

/**
 * The errors every operation of a kind can answer, with the wrapper's real messages (lib/api/route.ts,
 * auth.ts, idempotency.ts, respond.ts): one map of named examples per status. Operation-specific
 * errors (lib/api/openapi-examples/<resource>.ts) are added beside these.
 */
export function genericErrorExamples(route: ErrorExampleRoute, status: number): Record<string, Example> {
  switch (status) {
    case 400:
      return {
        invalidApiVersion: {
          summary: "Unsupported Svc-Version header",
          value: {
            error: "invalid_api_version",
            message: "Svc-Version '2025-01-01' is not supported. Supported: 2026-06-18.",
            supported_versions: ["2026-06-18"],
          },
        },
        ...(route.body
          ? { invalidJson: { summary: "A body that is not JSON", value: { error: "invalid_json", message: "The request body is not valid JSON." } } }
          : {}),
      };
    case 403:
      return {
        insufficientScope: {
          summary: `The key lacks ${route.scope}`,
          value: { error: "insufficient_scope", message: `This API key lacks the '${route.scope}' scope.`, required_scope: route.scope },
        },
      };
    case 404: {
      const [noun, id] = RESOURCE_BY_SEGMENT[route.path.split("/")[1] ?? ""] ?? ["resource", "id_unknown"];
      return { notFound: { summary: `No such ${noun} in this project`, value: { error: "not_found", message: `No ${noun} with id '${id}'.` } } };
    }
    default:
      return fixedErrorExamples(status);
  }
}

/** The examples that do not depend on the operation. */
function fixedErrorExamples(status: number): Record<string, Example> {
  switch (status) {
    case 401:
      return {
        missingApiKey: {
          summary: "No Authorization header",
          value: { error: "missing_api_key", message: "No API key. Send 'Authorization: Bearer svc_live_...'." },
        },
        invalidApiKey: {
          summary: "Unknown or revoked key",
          value: { error: "invalid_api_key", message: "This API key is not valid: it is unknown or has been revoked." },
        },
      };
    case 409:
      return {
        idempotencyKeyReused: {
          summary: "Idempotency-Key reused with another body",
          value: {
            error: "idempotency_key_reused",
            message: "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
          },
        },
      };
    case 429:
      return {
        rateLimit: {
          summary: "Per-key rate limit",
          value: {
            error: "rate_limit",
            message: "Rate limit of 600 requests per window exceeded for this API key. Retry after 12 s.",
            limit: 600,
            remaining: 0,
            reset_at: "2026-06-18T09:31:00.000Z",
          },
        },
      };
    case 413:
      return {
        payloadTooLarge: {
          summary: "A body over the 1 MiB cap",
          value: { error: "payload_too_large", message: "The request body is larger than 1048576 bytes, the limit of this operation.", max_bytes: 1048576 },
        },
      };
    case 503:
      return {
        databaseUnavailable: {
          summary: "The database is unreachable",
          value: {
            error: "database_unavailable",
            message: "The database is unreachable right now, so nothing was done. Retry after Retry-After seconds (with the same Idempotency-Key for writes).",
            retryable: true,
            retry_after: 1,
            request_id: REQUEST_ID,
          },
        },
        databaseTimedOut: {
          summary: "The database did not answer in time",
          value: {
            error: "database_unavailable",
            message:
              "The database did not answer in time (a statement ran past its limit), so nothing was done. Retry after Retry-After seconds (with the same Idempotency-Key for writes).",
            retryable: true,
            retry_after: 1,
            request_id: REQUEST_ID,
          },
        },
      };
    case 500:
      return {
        internalError: {
          summary: "Unexpected failure",
          value: { error: "internal_error", message: "Something went wrong on our side. Retry, and quote request_id if it persists.", request_id: REQUEST_ID },
        },
      };
    default:
      return {};
  }
}
