import { eq } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { SYSTEM_ACTOR } from "@/lib/domain/context";

export async function projectOrThrow(db: Db, id: string) {
  const [project] = await db.select().from(projects).where(eq(projects.id, id));
  if (!project) throw new Error(`No project '${id}'. List them with: npm run svc -- projects list`);
  return project;
}

/** The admin CLI acts as the system (whoever holds DATABASE_URL): its audit entries say so. */
export const CLI_ACTOR_DISPLAY = "svc CLI";

export function cliAuditCtx(db: Db, project: { id: string; organizationId: string }) {
  return { db, actor: SYSTEM_ACTOR, now: new Date(), ip: null, project };
}
