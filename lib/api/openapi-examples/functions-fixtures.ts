/**
 * Shared values of the hosted-function examples: `order-status` of the "Support bot" project
 * (fixtures.ts) looks an order up in the shop's API with the secret SHOP_TOKEN. Version 1 was a
 * placeholder; version 2, in TypeScript, is live. Shapes follow lib/domain/functions/serialize.ts.
 */
import { CONTACT_ID, PHONE } from "./fixtures";

export const FUNCTION_ID = "fn_01jxq5c2d3e4f5g6h7j8k9m0n1";
export const VERSION_1_ID = "ver_01jxq5c8p2q3r4s5t6v7w8x9y0";
export const VERSION_2_ID = "ver_01jxq5d4a5b6c7d8e9f0g1h2j3";
const INVOCATION_ID = "fninv_01jxq5e6k7m8n9p0q1r2s3t4v5";
export const TEST_INVOCATION_ID = "fninv_01jxq5e2w3x4y5z6a7b8c9d0e1";
const FAILED_INVOCATION_ID = "fninv_01jxq5e9f0g1h2j3k4m5n6p7q8";
export const SLUG = "order-status";

const CREATED_AT = "2026-06-18T08:00:00.000Z";
export const DEPLOYED_V1_AT = "2026-06-18T08:02:14.000Z";
export const DEPLOYED_V2_AT = "2026-06-18T08:41:37.000Z";
export const INVOKED_AT = "2026-06-18T09:44:20.000Z";

export const SOURCE_V1 = `export default async function (event) {
  return { text: "Order lookups are coming soon." };
}
`;

export const SOURCE_V2 = `interface Order { id: string; status: string; eta: string | null }

export default async function (event: { type: string; text?: string; arguments?: Record<string, unknown> }) {
  const orderId = String(event.arguments?.order_id ?? event.text?.replace(/\\D/g, "") ?? "");
  const res = await fetch(\`https://shop.example.com/api/orders/\${orderId}\`, {
    headers: { authorization: \`Bearer \${env.SHOP_TOKEN}\` },
  });
  if (!res.ok) return { order_id: orderId, status: "unknown", eta: null };
  const order: Order = await res.json();
  console.log(\`order \${order.id}: \${order.status}\`);
  return { order_id: order.id, status: order.status, eta: order.eta };
}
`;

export const IMPORT_SOURCE = `import { createHash } from "node:crypto";

export default async (event) => createHash("sha256").update(event.text).digest("hex");
`;

/** Version 2 with a parenthesis missing on line 9. */
export const SOURCE_TYPO = SOURCE_V2.replace("await res.json();", "await res.json(;");

export const INPUT_SCHEMA = {
  type: "object",
  properties: { order_id: { type: "string", pattern: "^[0-9]+$", description: "The shop's order number." } },
  required: ["order_id"],
  additionalProperties: false,
};

export const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

export const NEW_FUNCTION = {
  object: "hosted_function",
  id: FUNCTION_ID,
  slug: SLUG,
  name: "Order status",
  trigger_type: "KEYWORD",
  script_name: `${SLUG}-v0`,
  runtime: "PLAIN",
  active_version_id: null,
  expose_as_mcp_tool: false,
  input_schema: null,
  is_active: true,
  last_deployed_at: null,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

/** As lists show it: version 2 live, exposed as an MCP tool with its input_schema. */
export const FUNCTION = {
  ...NEW_FUNCTION,
  script_name: `${SLUG}-v2`,
  active_version_id: VERSION_2_ID,
  expose_as_mcp_tool: true,
  input_schema: INPUT_SCHEMA,
  last_deployed_at: DEPLOYED_V2_AT,
  updated_at: DEPLOYED_V2_AT,
};

const ORDER = { order_id: "1042", status: "shipped", eta: "2026-06-19" };
export const CONTACT = { id: CONTACT_ID, phone: PHONE, name: "Carla Diaz" };
export const INVOKE_EVENT = { type: "invoke", arguments: { order_id: "1042" }, contact: CONTACT };
export const TEST_EVENT = {
  type: "message",
  trigger: "KEYWORD",
  text: "Where is my order #1042?",
  contact: CONTACT,
  conversation_id: null,
  channel_id: null,
  variables: {},
};

export const okRun = {
  function_id: FUNCTION_ID,
  invocation_id: INVOCATION_ID,
  version_id: VERSION_2_ID,
  status: "ok",
  result: ORDER,
  error: null,
  logs: [{ level: "log", message: "order 1042: shipped", at_ms: 148 }],
  cpu_ms: 4,
  sub_requests: 1,
  duration_ms: 162,
};

export const cpuLimitRun = {
  ...okRun,
  invocation_id: FAILED_INVOCATION_ID,
  status: "error",
  result: null,
  error: "cpu_limit_exceeded: the function used more than 1000 ms of CPU time",
  logs: [{ level: "log", message: "retrying until the shop answers", at_ms: 2 }],
  cpu_ms: 1001,
  sub_requests: 0,
  duration_ms: 1004,
};

interface Run {
  invocation_id: string;
  version_id: string;
  status: string;
  result: unknown;
  error: string | null;
  logs: unknown[];
  cpu_ms: number;
  sub_requests: number;
  duration_ms: number;
}

export const invocation = (run: Run, eventType: string, input: unknown, startedAt: string) => ({
  object: "function_invocation",
  id: run.invocation_id,
  function_id: FUNCTION_ID,
  version_id: run.version_id,
  event_type: eventType,
  status: run.status,
  cpu_ms: run.cpu_ms,
  sub_requests: run.sub_requests,
  duration_ms: run.duration_ms,
  error: run.error,
  logs: run.logs,
  input,
  result: run.result,
  started_at: startedAt,
});

export const version = (id: string, number: number, source: string, createdAt: string, isActive: boolean) => ({
  object: "function_version",
  id,
  function_id: FUNCTION_ID,
  number,
  script_name: `${SLUG}-v${number}`,
  runtime: "PLAIN",
  bytes: utf8Bytes(source),
  is_active: isActive,
  created_at: createdAt,
});
