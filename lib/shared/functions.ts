/** Hosted-function vocabularies both the API and the dashboard use (docs/spec/decisions.md "Hosted functions"). */
export const FUNCTION_TRIGGER_TYPES = ["KEYWORD", "WELCOME", "ANY_MESSAGE"] as const;
export const FUNCTION_RUNTIMES = ["PLAIN", "WFP"] as const;
export const FUNCTION_EVENT_TYPES = ["test", "invoke", "automation", "agent_tool", "mcp_tool"] as const;
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
export const MAX_SECRETS_PER_FUNCTION = 50;
export const MAX_SOURCE_CHARS = 400_000;

export type FunctionTriggerType = (typeof FUNCTION_TRIGGER_TYPES)[number];
export type FunctionRuntimeName = (typeof FUNCTION_RUNTIMES)[number];
export type FunctionEventType = (typeof FUNCTION_EVENT_TYPES)[number];
