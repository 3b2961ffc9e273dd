import type { SystemCtx } from "@/lib/domain/context";
import type { InboundEvent } from "./types";
import { channelBySender, channelBySenderSeeing } from "./resolve";
import { applyMessage } from "./inbound-message";
import { applyProviderStatus } from "./statuses";
import { applyEcho } from "./echoes";
import { applyCall } from "./calls";
import { applyIdentityChange } from "./identity-change";
import { flowStatusReceived, templateStatusReceived } from "./reactions";

export type ApplyOutcome =
  | "stored"
  | "duplicate"
  | "mutated"
  | "status"
  | "status_pending"
  | "status_ignored"
  | "call"
  | "echo"
  | "joined"
  | "identity"
  | "flow_status"
  | "template_status"
  | "no_channel"
  | "no_project"
  | "join_rejected"
  /** For a disconnected channel (DELETE /channels/{id}): the envelope stays in inbound_webhooks, nothing else is written. */
  | "channel_disconnected"
  /** An edit or delete whose original is not stored yet (separate deliveries can arrive out of order). */
  | "mutation_pending"
  /** An echo that may be our own in-flight send, whose provider id the send job has not stored yet. */
  | "echo_pending";

export interface ApplyOptions {
  /** The last attempt of a retried event: store or drop it now instead of waiting any longer. */
  final?: boolean;
}

/** Outcomes that ask the caller to apply the same event again a little later. */
export function isPending(outcome: ApplyOutcome): boolean {
  return outcome === "status_pending" || outcome === "mutation_pending" || outcome === "echo_pending";
}

/**
 * Applies one normalised provider event at ctx.now, writing with ctx.db and enqueueing follow-up work
 * (webhook deliveries, media caching) on ctx.ports.queue. Safe to run twice: provider retries change nothing.
 */
export async function applyInboundEvent(ctx: SystemCtx, event: InboundEvent, options: ApplyOptions = {}): Promise<ApplyOutcome> {
  // Addressed to a business account, not a number: the flow (or template) finds its own project.
  if (event.kind === "flow_status") {
    await flowStatusReceived.run(ctx, { businessAccountId: event.senderId, metaFlowId: event.flow_id, newStatus: event.new_status, message: event.message });
    return "flow_status";
  }
  if (event.kind === "template_status") {
    await templateStatusReceived.run(ctx, { businessAccountId: event.senderId, metaTemplateId: event.template_id, event: event.event, reason: event.reason });
    return "template_status";
  }
  // A customer's new message: its channel and whether it is stored already in one read.
  const fresh = event.kind === "message" && event.message.type !== "edit" && event.message.type !== "revoke" ? event.message.id : null;
  const [found] =
    fresh === null
      ? (await channelBySender(ctx.db).execute({ platform: event.platform, sender: event.senderId })).map((channel) => ({ channel, seen: undefined }))
      : await channelBySenderSeeing(ctx.db).execute({ platform: event.platform, sender: event.senderId, providerId: fresh });
  if (!found) return "no_channel";
  const channel = found.channel;
  if (channel.status === "disconnected") return "channel_disconnected";
  switch (event.kind) {
    case "message":
      return applyMessage(ctx, channel, event, options, found.seen);
    case "status":
      return applyProviderStatus(ctx, channel, event);
    case "echo":
      return applyEcho(ctx, channel, event, options);
    case "call":
      return applyCall(ctx, channel, event);
    case "identity_change":
      return applyIdentityChange(ctx, channel, event);
  }
}
