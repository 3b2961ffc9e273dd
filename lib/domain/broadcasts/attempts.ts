/**
 * A recipient's send attempt, recorded before the provider is called: `dispatched_at` is set and
 * committed first, then the send, then its answer (the provider's id, a refusal, a failure). A
 * recipient found dispatched with no answer once its sender is gone may have reached the customer, so
 * it is never sent again by itself: it ends `failed` with error code `outcome_unknown`
 * (docs/api-decisions.md "Broadcasts"), and only a deliberate resend (resend.ts) sends it again.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { broadcastRecipients, messages } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { applyStatuses, STATUS_TARGET_COLUMNS } from "@/lib/domain/messages/status";
import type { Db } from "@/lib/ports/db/types";
import { anyOf } from "@/lib/ports/db/bulk";
import type { MessageFailure, ProviderError } from "@/lib/ports/provider/types";
import { queuedWithoutAnswer, type Outgoing } from "./claim";

export const OUTCOME_UNKNOWN = "outcome_unknown";
const PAGE = 500;

/**
 * Marks these recipients as handed to the provider, only where nobody did yet (still queued with the
 * same message, not dispatched): the ones returned, and only they, may be sent now. A second sender
 * holding the same batch (a slice taken over while its old one still ran) gets none of them.
 */
export async function markDispatched(db: Db, items: Outgoing[], now: Date): Promise<Outgoing[]> {
  if (items.length === 0) return [];
  const marked = await db
    .update(broadcastRecipients)
    .set({ dispatchedAt: now })
    .where(
      and(
        // One array parameter each, not one per item: one statement text (prepared once) for any chunk.
        anyOf(
          broadcastRecipients.id,
          items.map((o) => o.recipientId),
        ),
        anyOf(
          broadcastRecipients.messageId,
          items.map((o) => o.messageId),
        ),
        eq(broadcastRecipients.status, "queued"),
        isNull(broadcastRecipients.dispatchedAt),
      ),
    )
    .returning({ id: broadcastRecipients.id });
  const ids = new Set(marked.map((row) => row.id));
  return items.filter((o) => ids.has(o.recipientId));
}

/** The provider refused these (throughput, a transient error): not sent, so they may be tried again. */
export async function refusedForNow(db: Db, recipientIds: string[], now: Date): Promise<void> {
  if (recipientIds.length === 0) return;
  await db
    .update(broadcastRecipients)
    .set({ attempts: sql`${broadcastRecipients.attempts} + 1`, dispatchedAt: null, updatedAt: now })
    .where(inArray(broadcastRecipients.id, recipientIds));
}

/** A refusal that is no answer at all: the request left and nothing came back in time (graph-http.ts networkFailure). */
export function answerLost(error: ProviderError): boolean {
  return error.failure.code === "timeout";
}

/** The failure recorded on a send whose outcome is unknown: `why` says what happened. */
export function unknownOutcome(why: string, at: Date): MessageFailure {
  return {
    provider: "service",
    summary: "The outcome of this send is unknown: it may have reached the customer",
    code: OUTCOME_UNKNOWN,
    subcode: null,
    type: "outcome_unknown",
    title: null,
    message: `${why} It may have reached the customer, so it is not sent again automatically; resend it on purpose with POST /broadcasts/{id}/resend-unknown.`,
    fbtrace_id: null,
    http_status: null,
    occurred_at: at.toISOString(),
  };
}

const LOST_SENDER = "Its sender stopped after handing the message to the provider and before it heard the answer.";

/**
 * Every recipient of the broadcast handed to the provider with no answer recorded → `failed`
 * (`outcome_unknown`), with its message and a message.status event. Called by a slice that has just
 * taken the run's lease (so no live sender is waiting for those answers) and by a cancelled run's
 * release. Returns how many.
 */
export async function settleUnknown(ctx: SystemCtx, broadcastId: string): Promise<number> {
  let settled = 0;
  for (;;) {
    const page = await ctx.db
      .select(STATUS_TARGET_COLUMNS)
      .from(broadcastRecipients)
      .innerJoin(messages, eq(messages.id, broadcastRecipients.messageId))
      .where(queuedWithoutAnswer(broadcastId, true))
      .limit(PAGE);
    if (page.length === 0) return settled;
    const at = ctx.ports.clock.now();
    const failure = unknownOutcome(LOST_SENDER, at);
    const moved = await applyStatuses(
      ctx,
      page.map((message) => ({ message, update: { status: "failed" as const, at, failure } })),
    );
    settled += moved;
    // Moved by someone else meanwhile (a late answer): the next page would find the same rows again.
    if (moved === 0 || page.length < PAGE) return settled;
  }
}
