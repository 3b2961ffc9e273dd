import { and, asc, eq, isNotNull } from "drizzle-orm";
import { hostedFunctions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";

/** How many exposed functions one MCP tool list carries at most: a tool list is read on every MCP request. */
const MAX_EXPOSED_FUNCTIONS = 100;

export interface ExposedFunction {
  id: string;
  slug: string;
  name: string;
  inputSchema: Record<string, unknown> | null;
}

/**
 * The project's functions an MCP client may call as tools (docs/spec/decisions.md "Developer tools"):
 * `expose_as_mcp_tool`, active, and deployed (a function without an active version cannot run).
 */
export async function listExposedFunctions(ctx: Pick<Ctx, "db" | "project">): Promise<ExposedFunction[]> {
  return ctx.db
    .select({ id: hostedFunctions.id, slug: hostedFunctions.slug, name: hostedFunctions.name, inputSchema: hostedFunctions.inputSchema })
    .from(hostedFunctions)
    .where(
      and(
        eq(hostedFunctions.projectId, ctx.project.id),
        eq(hostedFunctions.exposeAsMcpTool, true),
        eq(hostedFunctions.isActive, true),
        isNotNull(hostedFunctions.activeVersionId),
      ),
    )
    .orderBy(asc(hostedFunctions.slug))
    .limit(MAX_EXPOSED_FUNCTIONS);
}
