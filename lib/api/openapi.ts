import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { ZodObject, ZodType } from "zod";
import { API_VERSION } from "@/lib/config";
import { ErrorBody } from "./schemas/common";
import { OPENAPI_EXAMPLES, genericErrorExamples, type Example } from "./openapi-examples";
import type { Route } from "./route";
import { isByteRoute, type ByteRoute, type Endpoint } from "./endpoint";

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request (invalid_request with issues keyed by field path, invalid_json, invalid_api_version).",
  401: "Missing or invalid API key (missing_api_key, invalid_api_key).",
  403: "The key lacks the required scope (insufficient_scope with required_scope).",
  404: "No such resource in this project (not_found).",
  409: "Conflict (idempotency_key_reused, idempotency_key_in_progress, or a state rule of the operation).",
  412: "The channel cannot be used yet (channel_not_ready with blockers).",
  422: "Valid, but not possible on this channel or for this recipient (e.g. media_unsupported_on_channel, sandbox_recipient_not_joined).",
  413: "The body is larger than the operation's cap (payload_too_large with max_bytes; 1 MiB unless stated).",
  429: "Rate limited (rate_limit, monthly_quota_exceeded); see Retry-After and X-Svc-Limit-Type.",
  500: "Internal error (internal_error with request_id).",
  502: "The provider refused the call or did not answer (provider_error with retryable and the provider's failure).",
  503: "A dependency is unavailable (database_unavailable, or message_rate_limit_unavailable on sends); nothing was done: retry after Retry-After with the same Idempotency-Key.",
};

const RATE_HEADERS = {
  "RateLimit-Limit": { description: "Requests allowed in the current window.", schema: { type: "integer" as const } },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" as const } },
  "RateLimit-Reset": { description: "Unix time (seconds) when the window resets.", schema: { type: "integer" as const } },
};
export const COMMON_HEADERS = {
  "Svc-Version": { description: "The API version that served the request.", schema: { type: "string" as const } },
  "Request-Id": { description: "Unique id of this request; quote it to support.", schema: { type: "string" as const } },
};

let cached: { routes: readonly Endpoint[]; doc: object } | null = null;

/**
 * OpenAPI 3.1 document of a routing table (lib/api/registry.ts), generated from the same zod schemas
 * the wrapper validates with. Byte routes bring their own description.
 */
export function buildOpenApiDocument(routes: readonly Endpoint[]): object {
  if (cached?.routes === routes && cached.doc) return cached.doc;
  const registry = new OpenAPIRegistry();
  registry.register("Error", ErrorBody);
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "Secret API key (svc_live_...).",
  });
  registry.registerComponent("securitySchemes", "publishableKey", {
    type: "apiKey",
    in: "header",
    name: "x-svc-publishable-key",
    description: "Publishable key (svc_pub_...), accepted only on POST /registration-intents.",
  });

  for (const endpoint of routes) {
    if (isByteRoute(endpoint)) registerByteRoute(registry, endpoint);
    else registerJsonRoute(registry, endpoint);
  }

  const generator = new OpenApiGeneratorV31(registry.definitions);
  const doc = generator.generateDocument({
    openapi: "3.1.0",
    info: {
      title: "svc API",
      version: API_VERSION,
      description:
        "One REST API over several business-messaging platforms. Send `Authorization: Bearer svc_live_...`; pin a version with the `Svc-Version` header.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/api/v1", description: "This server" }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: `${name} operations.` })),
  });
  cached = { routes, doc };
  return doc;
}

/** A defineRoute route: its schemas, the errors it can answer (with examples), its scope and idempotency notes. */
function registerJsonRoute(registry: OpenAPIRegistry, route: Route) {
  const keyed = route.auth !== "none";
  const errors = new Set<number>([400, 500]);
  if (keyed) [401, 429].forEach((s) => errors.add(s));
  if (route.scope) errors.add(403);
  if (route.params) errors.add(404);
  if (route.idempotency !== "off") errors.add(409);
  // Request limits (lib/api/request-input.ts) and a database outage (lib/ports/db/postgres-guard.ts).
  if (route.body || route.idempotency !== "off") errors.add(413);
  errors.add(503);
  // lib/api/openapi-examples: request and 200 examples, and the errors particular to this operation.
  const examples = OPENAPI_EXAMPLES[route.operationId];
  for (const status of Object.keys(examples?.errors ?? {})) errors.add(Number(status));
  const responses: RouteConfig["responses"] = {
    200: {
      description: "Success.",
      headers: keyed ? { ...COMMON_HEADERS, ...RATE_HEADERS } : COMMON_HEADERS,
      content: { "application/json": { schema: route.response, ...withExamples(examples?.response) } },
    },
  };
  for (const status of [...errors].sort()) {
    const errorExamples = { ...genericErrorExamples(route, status), ...examples?.errors?.[status] };
    responses[status] = { description: ERROR_DESCRIPTIONS[status]!, content: { "application/json": { schema: ErrorBody, ...withExamples(errorExamples) } } };
  }
  const scopeNote = route.auth === "none" ? "No API key needed." : route.scope ? `Requires scope \`${route.scope}\`.` : "Any valid API key.";
  const idemNote =
    route.idempotency === "required"
      ? " Requires an Idempotency-Key header."
      : route.idempotency === "optional"
        ? " Accepts an Idempotency-Key header (kept 24 h)."
        : "";
  registry.registerPath({
    method: route.method.toLowerCase() as "get" | "post" | "patch" | "put" | "delete",
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, scopeNote + idemNote].filter(Boolean).join("\n\n"),
    tags: [route.tag],
    security: route.auth === "none" ? [] : route.auth === "secret_or_publishable" ? [{ bearerAuth: [] }, { publishableKey: [] }] : [{ bearerAuth: [] }],
    "x-svc-scope": route.scope,
    request: {
      ...(route.params ? { params: route.params as ZodObject } : {}),
      ...(route.query ? { query: route.query as ZodObject } : {}),
      ...(route.body
        ? { body: { required: true, content: { "application/json": { schema: route.body as ZodType, ...withExamples(examples?.request) } } } }
        : {}),
    },
    responses,
  } as RouteConfig);
}

/** A media type's `examples` (omitted when there are none). */
function withExamples(examples: Record<string, Example> | undefined): { examples?: Record<string, Example> } {
  return examples && Object.keys(examples).length ? { examples } : {};
}

/** A route that writes its own answer (the signed media download, the MCP server): described by its own `openapi` request and responses. */
function registerByteRoute(registry: OpenAPIRegistry, route: ByteRoute) {
  registry.registerPath({
    method: route.method === "POST" ? "post" : "get",
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    security: route.auth === "none" ? [] : [{ bearerAuth: [] }],
    "x-svc-scope": route.scope,
    ...route.openapi,
  });
}
