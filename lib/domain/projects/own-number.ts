import { and, eq, isNull } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

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
}
