import type { Reaction } from "@/lib/domain/shared/reactions";
import type { InboundStored } from "@/lib/domain/ingest/reactions";
import type { StatusMoved } from "@/lib/domain/messages/status-moved";
import type { TemplateStatusMoved } from "@/lib/domain/templates/status-moved";
import { markReplied, moveRecipient, moveRecipients } from "./progress";
import { pauseForTemplate } from "./run-state";

/** Broadcasts go out on dedicated numbers only: a reply there counts for the broadcast message before it. */
export const replyCountsForBroadcast: Reaction<InboundStored> = {
  name: "broadcasts: count the reply for the broadcast message before it",
  async react(ctx, input) {
    if (input.channel.isSandbox) return;
    await markReplied(ctx.db, { projectId: input.project.id, contactId: input.contact.id, channelId: input.channel.id }, input.receivedAt);
  },
};

/** A recipient follows its message forward (messages/status.ts canMove). */
export const recipientsFollowStatus: Reaction<StatusMoved[]> = {
  name: "broadcasts: move each recipient with its message",
  concerns: (moved) => moved.some((m) => m.message.broadcastId),
  async react(ctx, moved) {
    const ours = moved.filter((m) => m.message.broadcastId);
    const failureOf = (m: StatusMoved) => (m.failure ?? null) as Record<string, unknown> | null;
    if (ours.length === 1) await moveRecipient(ctx.db, ours[0]!.message.id, ours[0]!.status, ours[0]!.at, failureOf(ours[0]!));
    else if (ours.length > 1)
      await moveRecipients(
        ctx.db,
        ours.map((m) => ({ messageId: m.message.id, status: m.status, at: m.at, failure: failureOf(m) })),
      );
  },
};

/** docs/spec/decisions.md "Broadcasts": a template the provider pauses or disables pauses the broadcasts sending it. */
export const pauseOnTemplateStatus: Reaction<TemplateStatusMoved> = {
  name: "broadcasts: pause the broadcasts of a template the provider paused or disabled",
  async react(ctx, moved) {
    if (moved.to === "PAUSED" || moved.to === "DISABLED") await pauseForTemplate(ctx.db, moved.templateId, moved.to, ctx.now);
  },
};
