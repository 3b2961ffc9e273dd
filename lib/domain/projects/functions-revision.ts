import { eq, sql } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys/auth-cache";

/**
 * Moves the project's functions revision (projects.functions_revision). The functions module calls
 * it inside the transaction of every change to a function, its active version or its secrets: a
 * process keeps what it loaded to run a function while the revision it reads with the API key is the
 * one it loaded under (lib/domain/functions/runnable-cache.ts). Not `updated_at`: the project itself
 * did not change. The revision comes with the authenticated key, which processes keep for a moment
 * (keys/auth-cache.ts): this process forgets it now, every process at the commit (drizzle/0025's NOTIFY).
 */
export async function bumpFunctionsRevision(db: Db, projectId: string): Promise<void> {
  await db
    .update(projects)
    .set({ functionsRevision: sql`${projects.functionsRevision} + 1` })
    .where(eq(projects.id, projectId));
  forgetAuthenticatedKeys();
}
