import type { Ctx } from "@/lib/domain/context";
import { getProjectRowOrThrow } from "@/lib/domain/projects";
import { loadReadinessFacts } from "./facts";
import { assessReadiness } from "./assess";

export { assessReadiness } from "./assess";
export { loadReadinessFacts, type ReadinessFacts } from "./facts";
export { isProductionInboundReady, isSandboxTestable, overallStatusOf } from "./headline";
export { REQUIREMENTS } from "./requirements";

/** GET /projects/{id}/readiness: loads the facts (./facts.ts), then judges them (./assess.ts). */
export async function getProjectReadiness(ctx: Ctx, projectId: string) {
  const project = await getProjectRowOrThrow(ctx, projectId);
  return assessReadiness(await loadReadinessFacts(ctx, project));
}
