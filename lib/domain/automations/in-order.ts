import { asc, eq } from "drizzle-orm";
import { automations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/** Every automation of the project in config order (active or not: a verdict says why each did not run), with what judging reads. */
export function automationsInOrder(db: Db, projectId: string) {
  return db
    .select({
      id: automations.id,
      key: automations.key,
      name: automations.name,
      position: automations.position,
      active: automations.active,
      trigger: automations.trigger,
    })
    .from(automations)
    .where(eq(automations.projectId, projectId))
    .orderBy(asc(automations.position), asc(automations.id));
}
