import { toolCatalogue } from "@/lib/api/mcp/tools";
import { jsonRoutes } from "@/lib/api/registry";
import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import type { Ctx } from "@/lib/domain/context";
import { listExposedFunctions } from "@/lib/domain/functions/mcp-tools";
import { normalizeScopes } from "@/lib/domain/keys";
import { mcpScopesOfKey } from "@/lib/domain/keys/manage";

const McpToolsQuery = z
  .object({
    key_id: z.string().min(1).max(100).optional(),
    scopes: z
      .string()
      .max(2000)
      .optional()
      .transform((value) =>
        value
          ?.split(",")
          .map((scope) => scope.trim())
          .filter(Boolean),
      ),
  })
  .refine((query) => (query.key_id === undefined) !== (query.scopes === undefined), {
    message: "Pass key_id (a secret key of this project) or scopes (comma-separated), one of the two.",
    path: ["key_id"],
  });

const McpTool = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  read_only: z.boolean(),
  scope: z.string(),
});

/** The wire shape, for the keys page's client (lib/client/mcp-tools.ts) to import as a type only. */
export type McpToolWire = z.infer<typeof McpTool>;

/**
 * The scopes come from the key (its stored scopes, 404 for another project's) or are given; the
 * tools are what the MCP server's tools/list would answer for them (lib/api/mcp/tools.ts toolCatalogue,
 * over the same routing table and the same exposed functions as lib/api/mcp/server.ts).
 */
async function mcpToolsFor(ctx: Ctx, query: z.output<typeof McpToolsQuery>) {
  const scopes = query.key_id !== undefined ? await mcpScopesOfKey(ctx, query.key_id) : normalizeScopes("secret", query.scopes ?? []);
  return { object: "list" as const, data: toolCatalogue(jsonRoutes, scopes, await listExposedFunctions(ctx)), has_more: false as const };
}

export const mcpToolRoutes = [
  defineRoute({
    method: "GET",
    path: "/mcp-tools",
    operationId: "dashboardListMcpTools",
    summary: "The MCP server's tools a key (key_id) or a scope list (scopes) may use in this project",
    tag: "Dashboard: API keys",
    auth: "session",
    scope: "keys:read",
    query: McpToolsQuery,
    response: z.object({ object: z.literal("list"), data: z.array(McpTool), has_more: z.literal(false) }),
    handler: ({ ctx, query }) => mcpToolsFor(ctx, query),
  }),
];
