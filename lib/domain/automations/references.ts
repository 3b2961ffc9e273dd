import { and, eq, or, sql } from "drizzle-orm";
import { automations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/**
 * The project's automations whose run_function steps name a function (by its id or its slug): while
 * any does, the function cannot be deleted (409 function_in_use, lib/domain/functions/crud.ts).
 */
export async function automationsUsingFunction(db: Db, projectId: string, fn: { id: string; slug: string }) {
  const naming = (ref: string) => sql`${automations.steps} @> ${JSON.stringify([{ run_function: { function: ref } }])}::jsonb`;
  return db
    .select({ id: automations.id, key: automations.key, name: automations.name })
    .from(automations)
    .where(and(eq(automations.projectId, projectId), or(naming(fn.id), naming(fn.slug))))
    .orderBy(automations.position);
}
