import type { AgentTool, ConnectorCreateRequest, ConnectorType, ToolBackingType, ToolCreateRequest } from "@/lib/client/agents";

/**
 * The connector and tool forms' drafts and the request bodies built from them (JSON texts parsed
 * here, so a typo is reported on its field before anything is sent). Pure.
 */
export interface ToolDraft {
  name: string;
  description: string;
  backingType: ToolBackingType;
  flowId: string;
  functionId: string;
  method: "GET" | "POST";
  path: string;
  /** NOOP's response, JSON text. */
  noopResponse: string;
  /** JSON Schema text; empty = no schema. */
  inputSchema: string;
}

export type Built<T> = { body: T; errors?: undefined } | { body?: undefined; errors: Record<string, string> };

export function emptyTool(backingType: ToolBackingType): ToolDraft {
  return { name: "", description: "", backingType, flowId: "", functionId: "", method: "POST", path: "", noopResponse: '{\n  "text": ""\n}', inputSchema: "" };
}

/** The backing a connector's tools usually have: FUNCTIONS → HOSTED_FUNCTION, FLOWS → FLOW, API → API_ENDPOINT. */
export function defaultBacking(type: ConnectorType): ToolBackingType {
  if (type === "FUNCTIONS") return "HOSTED_FUNCTION";
  if (type === "FLOWS") return "FLOW";
  if (type === "API") return "API_ENDPOINT";
  return "NOOP";
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

export function draftFromTool(tool: AgentTool): ToolDraft {
  const config = tool.config ?? {};
  return {
    name: tool.name,
    description: tool.description ?? "",
    backingType: tool.backing_type,
    flowId: tool.backing_flow_id ?? "",
    functionId: tool.backing_function_id ?? "",
    method: config.method === "GET" ? "GET" : "POST",
    path: str(config.path),
    noopResponse: config.response === undefined ? "" : JSON.stringify(config.response, null, 2),
    inputSchema: tool.input_schema ? JSON.stringify(tool.input_schema, null, 2) : "",
  };
}

function parseObject(text: string, field: string, errors: Record<string, string>): Record<string, unknown> | null | undefined {
  if (!text.trim()) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    errors[field] = "Must be a JSON object.";
  } catch (cause) {
    errors[field] = `Not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
  return undefined;
}

function parseAny(text: string, field: string, errors: Record<string, string>): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    errors[field] = `Not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`;
    return undefined;
  }
}

function backingFields(draft: ToolDraft, errors: Record<string, string>): Partial<ToolCreateRequest> {
  switch (draft.backingType) {
    case "FLOW":
      if (!draft.flowId) errors.backing_flow_id = "Pick a published flow.";
      return { backing_flow_id: draft.flowId || null, backing_function_id: null, config: null };
    case "HOSTED_FUNCTION":
      if (!draft.functionId) errors.backing_function_id = "Pick a deployed function.";
      return { backing_function_id: draft.functionId || null, backing_flow_id: null, config: null };
    case "API_ENDPOINT":
      if (!draft.path.trim()) errors["config.path"] = "Give the path under the connector's base URL, e.g. /orders/status.";
      return { backing_flow_id: null, backing_function_id: null, config: { method: draft.method, path: draft.path.trim() } };
    case "NOOP":
      return {
        backing_flow_id: null,
        backing_function_id: null,
        config: { response: draft.noopResponse.trim() ? parseAny(draft.noopResponse, "config.response", errors) : null },
      };
  }
}

export function toolBody(draft: ToolDraft): Built<ToolCreateRequest> {
  const errors: Record<string, string> = {};
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(draft.name)) errors.name = "Lower-case letters, digits and _, starting with a letter (at most 64).";
  const inputSchema = parseObject(draft.inputSchema, "input_schema", errors);
  const body: ToolCreateRequest = {
    name: draft.name,
    backing_type: draft.backingType,
    description: draft.description.trim() || null,
    input_schema: inputSchema ?? null,
    ...backingFields(draft, errors),
  };
  return Object.keys(errors).length ? { errors } : { body };
}

export interface ConnectorDraft {
  name: string;
  type: ConnectorType;
  baseUrl: string;
  authType: "NONE" | "API_KEY" | "BEARER";
  authHeader: string;
  /** What the secret box holds: the masked value read back (kept as is), a new secret, or "" (removes it). */
  secret: string;
}

export function connectorBody(draft: ConnectorDraft): Built<ConnectorCreateRequest> {
  const errors: Record<string, string> = {};
  if (!draft.name.trim()) errors.name = "Give the connector a name.";
  let config: Record<string, unknown> | null = null;
  if (draft.type === "API") {
    if (!/^https?:\/\/\S+$/.test(draft.baseUrl.trim())) errors["config.base_url"] = "An http or https URL, e.g. https://api.example.com.";
    config = { base_url: draft.baseUrl.trim(), auth_type: draft.authType };
    if (draft.authHeader.trim()) config.auth_header = draft.authHeader.trim();
    if (draft.authType !== "NONE") config.secret = draft.secret ? draft.secret : null;
  }
  return Object.keys(errors).length ? { errors } : { body: { name: draft.name.trim(), type: draft.type, config } };
}
