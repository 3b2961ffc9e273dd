import { randomBase62 } from "@/lib/crypto/secrets";
import type { Ctx } from "@/lib/domain/context";
import { activeWebhookSecrets } from "@/lib/domain/projects";
import { signatureHeaders } from "@/lib/domain/webhooks/signing";
import { OutboundNetworkError, OutboundTimeoutError, SsrfError, safeRequest } from "@/lib/ports/net/safe-request";
import type { ApiConnectorConfig } from "./connector-secret";

/**
 * An API_ENDPOINT tool's HTTP call (decisions.md "Business agents"): the connector's base_url joined
 * with the tool's path, through the SSRF guard, 10 s, signed like a webhook delivery (x-svc-signature
 * and the Standard Webhooks headers, with the project's webhook secret(s)) over the exact raw body,
 * plus the connector's auth header. GET sends the arguments as the query (the signed body is then
 * empty), POST as a JSON body.
 */

const TOOL_CALL_TIMEOUT_MS = 10_000;
const TOOL_RESPONSE_MAX_BYTES = 1024 * 1024;
const TOOL_CALL_EVENT = "business_agent.tool_call";

export interface ApiCallOutcome {
  result: unknown;
  error: { code: string; message: string } | null;
}

export interface ApiCallInput {
  connector: ApiConnectorConfig & { secret: string | null };
  method: "GET" | "POST";
  path: string;
  arguments: Record<string, unknown>;
}

/** base_url + path, kept on base_url's origin whatever the path holds. */
function endpointUrl(baseUrl: string, path: string, method: "GET" | "POST", args: Record<string, unknown>): URL {
  const base = new URL(baseUrl);
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}${path}`);
  if (url.origin !== base.origin) throw new SsrfError("invalid_url", `the path leaves ${base.origin}`);
  if (method === "GET") {
    for (const [name, value] of Object.entries(args)) {
      if (value === undefined || value === null) continue;
      url.searchParams.append(name, typeof value === "string" ? value : JSON.stringify(value));
    }
  }
  return url;
}

function authHeaders(connector: ApiCallInput["connector"]): Record<string, string> {
  if (connector.auth_type === "NONE" || !connector.secret) return {};
  if (connector.auth_type === "BEARER") return { [(connector.auth_header ?? "authorization").toLowerCase()]: `Bearer ${connector.secret}` };
  return { [(connector.auth_header ?? "x-api-key").toLowerCase()]: connector.secret };
}

function parsedBody(body: Buffer): unknown {
  const text = body.toString("utf8");
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function failure(code: string, message: string): ApiCallOutcome {
  return { result: null, error: { code, message } };
}

function describeFailure(error: unknown, url: string): ApiCallOutcome {
  if (SsrfError.is(error)) return failure("tool_url_refused", `The call to ${url} was refused: ${error.message}.`);
  if (OutboundTimeoutError.is(error)) return failure("tool_timeout", `${url} did not answer within ${TOOL_CALL_TIMEOUT_MS / 1000} s.`);
  if (OutboundNetworkError.is(error)) return failure("tool_unreachable", `${url} could not be reached (${error.code}).`);
  throw error;
}

export async function callApiEndpoint(ctx: Ctx, input: ApiCallInput): Promise<ApiCallOutcome> {
  let url: URL;
  try {
    url = endpointUrl(input.connector.base_url, input.path, input.method, input.arguments);
  } catch (error) {
    return describeFailure(error, `${input.connector.base_url}${input.path}`);
  }
  const body = input.method === "POST" ? JSON.stringify(input.arguments) : "";
  const headers: Record<string, string> = {
    ...authHeaders(input.connector),
    ...(input.method === "POST" ? { "content-type": "application/json" } : {}),
    "user-agent": "svc-agent-tools/1.0",
    ...signatureHeaders({
      eventId: `toolcall_${randomBase62(22)}`,
      eventType: TOOL_CALL_EVENT,
      body,
      secrets: activeWebhookSecrets(ctx.project, ctx.now),
      timestamp: ctx.now,
    }),
  };
  try {
    const response = await safeRequest(url.toString(), {
      method: input.method,
      headers,
      ...(input.method === "POST" ? { body } : {}),
      timeoutMs: TOOL_CALL_TIMEOUT_MS,
      maxResponseBytes: TOOL_RESPONSE_MAX_BYTES,
      allowPrivateNetwork: ctx.settings.allowPrivateNetwork,
    });
    if (response.truncated) return failure("tool_response_too_large", `${url.origin}${url.pathname} answered more than 1 MiB.`);
    const answer = parsedBody(response.body);
    if (response.status < 200 || response.status >= 300) {
      const excerpt = response.body.toString("utf8").slice(0, 200);
      return {
        result: answer,
        error: { code: "tool_http_error", message: `${input.method} ${url.origin}${url.pathname} answered ${response.status}: ${excerpt}` },
      };
    }
    return { result: answer, error: null };
  } catch (error) {
    return describeFailure(error, `${url.origin}${url.pathname}`);
  }
}
