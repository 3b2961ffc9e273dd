import { desc, eq } from "drizzle-orm";
import { sandboxParticipants } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";

/**
 * The project's sandbox testers, the latest to join first. The Sandbox phone opens on the latest one
 * instead of inventing a number nobody joined with (issue 32 item 13): the tester who just sent
 * `join <code>` (from the README's block or a real phone) is who the operator wants to be.
 */
export async function joinedTesters(ctx: Ctx) {
  const rows = await ctx.db
    .select({ address: sandboxParticipants.address, joinedAt: sandboxParticipants.joinedAt })
    .from(sandboxParticipants)
    .where(eq(sandboxParticipants.projectId, ctx.project.id))
    .orderBy(desc(sandboxParticipants.joinedAt), desc(sandboxParticipants.id))
    // The participant cap keeps this small (docs/spec/decisions.md: 5 per project, configurable).
    .limit(100);
  return {
    object: "list" as const,
    // Stored as the platform's digits (wa_id); the phone and the inbox show numbers in E.164.
    data: rows.map((row) => ({ object: "sandbox_tester" as const, phone: `+${row.address}`, joined_at: row.joinedAt.toISOString() })),
    has_more: false,
  };
}
