import type { FunctionEventType } from "@/lib/shared/functions";

/** Who started a run (an invocation's event_type), in words. */
export const EVENT_TYPE_LABELS: Record<FunctionEventType, string> = {
  test: "Test",
  invoke: "Invoke",
  automation: "Automation",
  agent_tool: "Agent tool",
  mcp_tool: "MCP tool",
};
