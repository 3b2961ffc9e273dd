import { z, type ZodType } from "zod";
import { hasScope } from "@/lib/shared/scopes";
import type { ExposedFunction } from "@/lib/domain/functions/mcp-tools";
import type { OperationInput, Route } from "@/lib/api/route";

/**
 * The MCP server's tools (docs/spec/decisions.md "Developer tools"): a curated set of /api/v1
 * operations, each tool's schema, description and scope derived from its route, plus the project's
 * functions exposed as tools. One table so the server, the dashboard's preview and the tests agree.
 */
const OPERATION_TOOLS = [
  { name: "send_message", operationId: "sendMessage" },
  { name: "get_message", operationId: "getMessage" },
  { name: "list_conversations", operationId: "listConversations" },
  { name: "get_conversation", operationId: "getConversation" },
  { name: "list_conversation_messages", operationId: "listConversationMessages" },
  // The team inbox: an agent can triage (counts, assign), leave the team a note and use saved replies.
  { name: "count_conversations", operationId: "countConversations" },
  { name: "assign_conversation", operationId: "assignConversation" },
  { name: "list_conversation_notes", operationId: "listConversationNotes" },
  { name: "add_conversation_note", operationId: "createConversationNote" },
  { name: "list_saved_replies", operationId: "listSavedReplies" },
  { name: "render_saved_reply", operationId: "renderSavedReply" },
  { name: "list_contacts", operationId: "listContacts" },
  { name: "get_contact", operationId: "getContact" },
  { name: "send_flow", operationId: "sendFlow" },
  { name: "invoke_function", operationId: "invokeFunction" },
  { name: "list_automations", operationId: "listAutomations" },
  { name: "get_automation", operationId: "getAutomation" },
  { name: "create_automation", operationId: "createAutomation" },
  { name: "update_automation", operationId: "updateAutomation" },
  { name: "delete_automation", operationId: "deleteAutomation" },
  { name: "list_automation_runs", operationId: "listAutomationRuns" },
  { name: "get_automation_run", operationId: "getAutomationRun" },
  { name: "explain_message_automations", operationId: "getMessageAutomations" },
] as const;

/** The scope a key needs to see and call a function exposed as a tool (it runs as POST /functions/{id}/invoke). */
const FUNCTION_TOOL_SCOPE = "functions:invoke";
const FUNCTION_TOOL_PREFIX = "fn_";

type JsonSchema = Record<string, unknown>;

/** A tool as tools/list describes it (the MCP Tool shape) and what it runs. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties?: Record<string, JsonSchema>; required?: string[]; [k: string]: unknown };
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** The scope a key must hold to see and call it. */
  scope: string;
  /** The operation it runs: a route, and how the tool's arguments become the route's input. */
  route: Route;
  inputOf(args: Record<string, unknown>): OperationInput;
}

function toJsonSchema(schema: ZodType): JsonSchema {
  // "input": what a caller sends (defaults optional, coercions as their source type).
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function objectParts(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } | null {
  if (schema.type !== "object" || typeof schema.properties !== "object" || !schema.properties) return null;
  return { properties: schema.properties as Record<string, JsonSchema>, required: Array.isArray(schema.required) ? (schema.required as string[]) : [] };
}

/** A path or query value as the URL would carry it, so the route's schema coerces it the same way. */
function urlValue(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * One flat argument object per tool: the route's path parameters, query and (object) body side by
 * side, as an agent would describe the call. A body that is not a plain object goes under `body`.
 */
function operationTool(name: string, route: Route): ToolSpec {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const pathNames: string[] = [];
  const queryNames: string[] = [];
  for (const [part, schema, names] of [
    ["params", route.params, pathNames],
    ["query", route.query, queryNames],
  ] as const) {
    if (!schema) continue;
    const parts = objectParts(toJsonSchema(schema));
    if (!parts) throw new Error(`MCP tool ${name}: the ${part} schema of ${route.operationId} is not an object.`);
    Object.assign(properties, parts.properties);
    parts.required.forEach((field) => required.add(field));
    names.push(...Object.keys(parts.properties));
  }
  let bodyNested = false;
  if (route.body) {
    const body = toJsonSchema(route.body);
    const parts = objectParts(body);
    const clash = parts && Object.keys(parts.properties).some((field) => field in properties);
    if (parts && !clash) {
      Object.assign(properties, parts.properties);
      parts.required.forEach((field) => required.add(field));
    } else {
      properties.body = body;
      required.add("body");
      bodyNested = true;
    }
  }
  const readOnly = route.method === "GET";
  if (!readOnly && route.idempotency !== "off" && !("idempotency_key" in properties)) {
    properties.idempotency_key = { type: "string", minLength: 1, maxLength: 200, description: "Retry with the same key to never act twice." };
  }
  const inputSchema: ToolSpec["inputSchema"] = { type: "object", properties };
  if (required.size) inputSchema.required = [...required];
  return {
    name,
    title: route.summary,
    description: [route.summary + ".", route.description, `Runs ${route.method} /api/v1${route.path}; needs scope ${route.scope}.`].filter(Boolean).join(" "),
    inputSchema,
    annotations: readOnly
      ? { readOnlyHint: true, openWorldHint: false }
      : { readOnlyHint: false, destructiveHint: route.method === "DELETE", openWorldHint: true },
    scope: route.scope ?? "*",
    route,
    inputOf(args) {
      const params: Record<string, string> = {};
      const query: Record<string, string | string[]> = {};
      const rest: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(args)) {
        if (value === undefined) continue;
        if (pathNames.includes(field)) params[field] = String(urlValue(value));
        else if (queryNames.includes(field) || !route.body) query[field] = urlValue(value);
        else rest[field] = value;
      }
      const key = typeof args.idempotency_key === "string" ? args.idempotency_key : null;
      const body = bodyNested ? rest.body : route.body ? rest : undefined;
      return { params, query, body, idempotencyKey: key };
    },
  };
}

const cache = new WeakMap<readonly Route[], ToolSpec[]>();

/** Every curated tool, built once per routing table. A missing operation is a programming error. */
function operationTools(routes: readonly Route[]): ToolSpec[] {
  const cached = cache.get(routes);
  if (cached) return cached;
  const tools = OPERATION_TOOLS.map(({ name, operationId }) => {
    const route = routes.find((r) => r.operationId === operationId);
    if (!route) throw new Error(`MCP tool ${name}: no operation ${operationId} in the routing table.`);
    return operationTool(name, route);
  });
  cache.set(routes, tools);
  return tools;
}

/** The tool name of an exposed function: its slug (unique per project), in the characters tool names allow. */
function functionToolName(fn: Pick<ExposedFunction, "slug">): string {
  return FUNCTION_TOOL_PREFIX + fn.slug.replace(/[^A-Za-z0-9_]/g, "_");
}

/** A function exposed as a tool: its input_schema is the tool's schema; calling it invokes the function with those arguments. */
function functionTool(fn: ExposedFunction, invokeRoute: Route): ToolSpec {
  const schema = fn.inputSchema && fn.inputSchema.type === "object" ? fn.inputSchema : { type: "object" };
  const { $schema: _dialect, ...inputSchema } = schema as JsonSchema;
  return {
    name: functionToolName(fn),
    title: fn.name,
    description: `${fn.name}: the project's hosted function '${fn.slug}', run with these arguments (as POST /api/v1/functions/${fn.id}/invoke). Answers its result.`,
    inputSchema: inputSchema as ToolSpec["inputSchema"],
    annotations: { readOnlyHint: false, openWorldHint: true },
    scope: FUNCTION_TOOL_SCOPE,
    route: invokeRoute,
    inputOf: (args) => ({ params: { id: fn.id }, query: {}, body: { arguments: args }, idempotencyKey: null }),
  };
}

/** The tools a key holding `scopes` sees: the curated ones its scopes allow, then its project's exposed functions. */
export function toolsFor(routes: readonly Route[], scopes: readonly string[], functions: readonly ExposedFunction[]): ToolSpec[] {
  const allowed = operationTools(routes).filter((tool) => hasScope(scopes, tool.scope));
  if (!hasScope(scopes, FUNCTION_TOOL_SCOPE)) return allowed;
  const invokeRoute = operationTools(routes).find((tool) => tool.route.operationId === "invokeFunction")!.route;
  return [...allowed, ...functions.map((fn) => functionTool(fn, invokeRoute))];
}

/** A tool as tools/list answers it (without what it runs). */
export function describeTool(tool: ToolSpec) {
  return { name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations };
}

/**
 * The tools a key holding `scopes` sees, as the dashboard's API keys page lists them
 * (lib/dashboard/routes/mcp-tools.ts): tools/list's name, title and description, its read-only hint,
 * and the scope each one needs. Built by toolsFor, so the page can never disagree with the server.
 */
export function toolCatalogue(routes: readonly Route[], scopes: readonly string[], functions: readonly ExposedFunction[]) {
  return toolsFor(routes, scopes, functions).map((tool) => {
    const { name, title, description, annotations } = describeTool(tool);
    return { name, title, description, read_only: annotations.readOnlyHint, scope: tool.scope };
  });
}
