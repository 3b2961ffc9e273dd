"use client";

import { useQuery } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { McpToolWire as McpTool } from "@/lib/dashboard/routes/mcp-tools";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * The MCP server's tools one API key may use (GET /mcp-tools, lib/dashboard/routes/mcp-tools.ts): the
 * server decides from the key's scopes and the project's exposed functions, exactly as tools/list does.
 */
export type { McpTool };

/** The path MCP clients POST to, on this server's origin (lib/api/mcp/endpoint.ts). */
export const MCP_PATH = "/api/v1/mcp";

const mcpToolKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "mcp-tools"),
  forKey: (projectId: string, keyId: string) => projectQueryKey(projectId, "mcp-tools", { key_id: keyId }),
};

/** The tools `keyId` may use; idle until a key is picked. */
export function useMcpTools(projectId: string, keyId: string | null) {
  return useQuery({
    queryKey: mcpToolKeys.forKey(projectId, keyId ?? ""),
    queryFn: ({ signal }) => projectApi<ListEnvelope<McpTool>>(projectId, `/mcp-tools?key_id=${encodeURIComponent(keyId!)}`, { signal }),
    enabled: keyId !== null,
    select: (list) => list.data,
  });
}

/** The JSON an MCP client (Claude Desktop, Cursor, ...) is configured with; the key stays a placeholder. */
export function mcpClientConfig(url: string): string {
  return JSON.stringify({ mcpServers: { svc: { type: "http", url, headers: { Authorization: "Bearer <your key>" } } } }, null, 2);
}
