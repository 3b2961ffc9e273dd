import { and, eq, isNull } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys/auth-cache";

/**
 * Makes a channel the project's own number (channels/index.ts decides when: the first dedicated one,
 * or one connected after the number was disconnected). Guarded by the number the caller read, so two
 * concurrent connects do not both take the place.
 */
export async function setProjectNumber(db: Db, project: { id: string; channelId: string | null }, channelId: string, now: Date): Promise<void> {
  await db
    .update(projects)
    .set({ channelId, updatedAt: now })
    .where(and(eq(projects.id, project.id), project.channelId ? eq(projects.channelId, project.channelId) : isNull(projects.channelId)));
  // Inside the connect's transaction: the NOTIFY at its commit (drizzle/0025) reaches every process, this one included.
  forgetAuthenticatedKeys();
}
