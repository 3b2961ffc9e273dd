import { asc, eq, sql } from "drizzle-orm";
import { automations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";

/** Every automation of the project in config order (active or not: a verdict says why each did not run), with what judging reads. */
export function automationsInOrder(db: Db, projectId: string) {
  return inOrder(db).execute({ project: projectId });
}

/** Built once: every customer message under FLOWS routing reads it. */
const inOrder = preparedPerDb((db) =>
  db
    .select({
      id: automations.id,
      key: automations.key,
      name: automations.name,
      position: automations.position,
      active: automations.active,
      trigger: automations.trigger,
    })
    .from(automations)
    .where(eq(automations.projectId, sql.placeholder("project")))
    .orderBy(asc(automations.position), asc(automations.id))
    .prepare("automations_in_order"),
);
