import type { ByteRoute } from "@/lib/api/endpoint";
import { COMMON_HEADERS } from "@/lib/api/openapi";
import type { Route } from "@/lib/api/route";
import { ErrorBody } from "@/lib/api/schemas/common";
import { z } from "@/lib/api/zod";
import { serveMcp } from "./server";

const JsonRpcMessage = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi("McpJsonRpcMessage", { description: "One JSON-RPC 2.0 message of the Model Context Protocol (https://modelcontextprotocol.io)." });

const error = (description: string, examples: Record<string, { summary: string; value: unknown }> = {}) => ({
  description,
  content: { "application/json": { schema: ErrorBody, ...(Object.keys(examples).length ? { examples } : {}) } },
});

const callExample = {
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name: "send_message", arguments: { channel_id: "ch_sandbox", conversation_id: "conv_01jd...", text: "Your order has shipped." } },
};

const RATE_HEADERS = {
  "RateLimit-Limit": { description: "Requests allowed in the current window.", schema: { type: "integer" as const } },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" as const } },
  "RateLimit-Reset": { description: "Unix time (seconds) when the window resets.", schema: { type: "integer" as const } },
};

/**
 * The MCP server is in the routing table like any operation (Svc-Version, Request-Id, the key and its
 * limits) but answers JSON-RPC, so it writes its own answer and documents itself here. `routes` is a
 * thunk: the table it serves tools from is the one it is part of (lib/api/registry.ts).
 */
export function mcpRoutes(routes: () => readonly Route[]): ByteRoute[] {
  return [
    {
      answers: "bytes",
      method: "POST",
      head: false,
      path: "/mcp",
      operationId: "mcp",
      summary: "Model Context Protocol server (Streamable HTTP, stateless, JSON answers)",
      description:
        "Point an MCP client at this URL with `Authorization: Bearer svc_live_...`. Each POST carries one JSON-RPC message (initialize, tools/list, tools/call, ...); " +
        "the answer is JSON (no SSE stream, no session: GET and DELETE answer 405). The tool list is built per request from the key's scopes " +
        "(send_message needs messages:send, list_conversations conversations:read, ...), plus the project's deployed, active functions with " +
        "expose_as_mcp_tool (named `fn_<slug>`, needing functions:invoke). Read-only tools carry readOnlyHint. A failing tool answers a result " +
        "with isError and the API's error body as text. Every request counts once against the key's rate limit and monthly quota, like a REST call. " +
        "A browser Origin other than this server's (or SVC_MCP_ALLOWED_ORIGINS) is refused with 403 origin_not_allowed.\n\nAny valid API key; each tool needs its operation's scope.",
      tag: "MCP",
      auth: "secret",
      scope: null,
      audit: { exempt: "a transport: each tools/call runs an operation through Route.invoke, which records what that operation declares" },
      openapi: {
        request: {
          body: {
            required: true,
            content: {
              "application/json": {
                schema: JsonRpcMessage,
                examples: {
                  list: { summary: "List the tools this key may use", value: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } },
                  call: { summary: "Send a message through the send_message tool", value: callExample },
                },
              },
            },
          },
        },
        responses: {
          200: {
            description: "The JSON-RPC answer (a tool's failure is a result with isError: true).",
            headers: { ...COMMON_HEADERS, ...RATE_HEADERS },
            content: {
              "application/json": {
                schema: JsonRpcMessage,
                examples: {
                  call: {
                    summary: "send_message answered",
                    value: {
                      jsonrpc: "2.0",
                      id: 2,
                      result: {
                        content: [{ type: "text", text: '{"object":"message","id":"msg_01jd...","status":"queued"}' }],
                        structuredContent: { object: "message", id: "msg_01jd...", status: "queued" },
                      },
                    },
                  },
                },
              },
            },
          },
          202: { description: "A notification or response was accepted (no body)." },
          400: error("Invalid JSON, a batch, or an unsupported Svc-Version; a malformed JSON-RPC message answers a JSON-RPC error."),
          401: error("Missing or invalid API key (missing_api_key, invalid_api_key).", {
            missing: { summary: "No key", value: { error: "missing_api_key", message: "No API key. Send 'Authorization: Bearer svc_live_...'." } },
          }),
          403: error("A browser Origin that may not call the MCP server (origin_not_allowed).", {
            origin: {
              summary: "Foreign origin",
              value: { error: "origin_not_allowed", message: "The origin 'https://evil.example' may not call the MCP server.", origin: "https://evil.example" },
            },
          }),
          406: { description: "The client does not accept both application/json and text/event-stream (JSON-RPC error body)." },
          413: error("The body is larger than 1 MiB (payload_too_large)."),
          415: { description: "Content-Type is not application/json (JSON-RPC error body)." },
          429: error("Rate limited (rate_limit, monthly_quota_exceeded); see Retry-After and X-Svc-Limit-Type."),
        },
      },
      run: async (request, _params, runtime) => serveMcp(request, runtime, routes()),
    },
  ];
}
