import { and, eq } from "drizzle-orm";
import { flowSubmissions } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/** A flow.completed reached the webhook: its submission becomes FORWARDED (docs/spec/decisions.md "Flows"). */
export async function markSubmissionForwarded(db: Db, eventId: string): Promise<void> {
  await db
    .update(flowSubmissions)
    .set({ status: "FORWARDED" })
    .where(and(eq(flowSubmissions.eventId, eventId), eq(flowSubmissions.status, "VALIDATED")));
}
