import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/**
 * Malformed params of a request the server answers, refused before the SDK sees them: the SDK parses
 * a request with its schema before our handler runs and answers a failure as -32603 (internal error)
 * carrying zod's multi-line dump. JSON-RPC calls this -32602 (invalid params), and a client deserves
 * one line saying which field is wrong (docs/api-decisions.md "Developer tools").
 */
const SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: Issue[] } } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

interface Issue {
  path: PropertyKey[];
  message: string;
}

/** The JSON-RPC error answer for a request whose params do not fit its method, or null. */
export function invalidParamsAnswer(message: unknown): { jsonrpc: "2.0"; id: string | number; error: { code: number; message: string } } | null {
  if (!message || typeof message !== "object" || Array.isArray(message)) return null;
  const { id, method } = message as { id?: unknown; method?: unknown };
  // A notification gets no answer, and an unknown method is the SDK's -32601.
  if ((typeof id !== "string" && typeof id !== "number") || typeof method !== "string" || !Object.hasOwn(SCHEMAS, method)) return null;
  const parsed = SCHEMAS[method]!.safeParse(message);
  if (parsed.success) return null;
  const issues = (parsed.error?.issues ?? []).slice(0, 3).map(describe);
  return { jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}: ${issues.join("; ")}.` } };
}

function describe(issue: Issue): string {
  const field = issue.path.length ? issue.path.map(String).join(".") : "the request";
  const what = issue.message
    .replace(/^Invalid input: /, "")
    .replace(/\bexpected record\b/g, "expected an object")
    .replace(/\s+/g, " ");
  return `${field}: ${what}`;
}
