import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { API_VERSION, env } from "@/lib/config";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import { listExposedFunctions } from "@/lib/domain/functions/mcp-tools";
import type { Runtime } from "@/lib/server/runtime";
import type { Route } from "@/lib/api/route";
import type { Call } from "@/lib/api/call";
import { admit, countQuota } from "@/lib/api/admission";
import { readJson } from "@/lib/api/route-input";
import { errorResponse, failureOf, handlerHeaders } from "@/lib/api/respond";
import { originOf } from "@/lib/api/cors";
import { describeTool, toolsFor, type ToolSpec } from "./tools";
import { invalidParamsAnswer } from "./params";

/**
 * POST /api/v1/mcp: one stateless MCP request over Streamable HTTP with JSON answers (no session,
 * no SSE stream). The request is admitted like a REST call, counted once against the key's rate
 * limit and monthly quota, and then handed to a fresh MCP server whose tools are the key's.
 */
export async function serveMcp(request: Request, runtime: Runtime, routes: readonly Route[]): Promise<Response> {
  const requestId = newId("request");
  const call: Call = { request, pathParams: {}, runtime, operator: undefined, now: runtime.ports.clock.now(), headers: handlerHeaders(requestId) };
  try {
    assertOriginAllowed(request, runtime.settings.publicUrl);
    const key = (await admit(null, "secret", call))!;
    const message = await readJson(request, false);
    if (Array.isArray(message)) {
      // Batches left MCP in 2025-06-18; refusing them keeps "one HTTP request = one count" honest.
      throw new SvcError("invalid_request", "Send one JSON-RPC message per request: batches are not supported.", { issues: { body: ["A single object."] } });
    }
    await countQuota(key, call);
    const tools = toolsFor(routes, key.key.scopes, await listExposedFunctions({ db: runtime.database.db, project: key.project }));
    const refused = invalidParamsAnswer(message);
    const answer = refused ? Response.json(refused) : await answerMcp(request, message, mcpServer(tools, { key, request, runtime, requestId }));
    const headers = new Headers(answer.headers);
    for (const [name, value] of Object.entries(call.headers)) headers.set(name, value);
    headers.set("cache-control", "no-store");
    return new Response(answer.body, { status: answer.status, headers });
  } catch (error) {
    return errorResponse(error, requestId, call.headers);
  }
}

interface ToolCaller {
  key: AuthenticatedKey;
  request: Request;
  runtime: Runtime;
  requestId: string;
}

/** A server for this request only: its tool list is the calling key's, so it is never shared. */
function mcpServer(tools: ToolSpec[], caller: ToolCaller): Server {
  // The low-level Server: tool schemas here are JSON Schema (derived from routes, or a function's input_schema), not zod shapes McpServer wants.
  const server = new Server(
    { name: "svc", title: "svc API", version: API_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: "Tools of the svc messaging API for this API key's project. Each tool runs one /api/v1 operation with the key's scopes.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    // A tool the key may not use is as unknown as one that does not exist.
    const tool = tools.find((t) => t.name === params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}. List the tools this key may use with tools/list.`);
    return runTool(tool, params.arguments ?? {}, caller);
  });
  return server;
}

/** A tool's outcome as an MCP result: the operation's JSON answer, or the spec's error body with isError (never an HTTP error). */
async function runTool(tool: ToolSpec, args: Record<string, unknown>, caller: ToolCaller): Promise<CallToolResult> {
  try {
    const result = await tool.route.invoke(caller.key, tool.inputOf(args), caller.request, caller.runtime);
    const structured = result && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : { result };
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: structured };
  } catch (error) {
    const failure = failureOf(error, caller.requestId);
    return { content: [{ type: "text", text: JSON.stringify({ status: failure.status, ...failure.body }) }], isError: true };
  }
}

/** Runs one JSON-RPC message through the SDK's stateless transport and closes both ends after the answer. */
async function answerMcp(request: Request, message: unknown, server: Server): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: message });
  } finally {
    await server.close();
  }
}

/**
 * DNS-rebinding protection (the MCP transport spec): a browser page may only call from this server's
 * own origin (SVC_PUBLIC_URL) or one of SVC_MCP_ALLOWED_ORIGINS. A client that sends no Origin is no
 * browser and passes. The request's Host is not trusted for this: a rebound name would match it.
 */
function assertOriginAllowed(request: Request, publicUrl: string): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  const allowed = new Set([originOf(publicUrl), ...env().mcpAllowedOrigins.map(originOf)]);
  if (allowed.has(originOf(origin))) return;
  throw new SvcError(
    "origin_not_allowed",
    `The origin '${origin}' may not call the MCP server. Call it from a server-side client, or add the origin to SVC_MCP_ALLOWED_ORIGINS.`,
    { origin },
  );
}
