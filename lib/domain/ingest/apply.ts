import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { InboundEvent } from "./types";
import { addressOf, channelBySender, channelBySenderSeeing, channelBySenderWithMessage } from "./resolve";
import type { Db } from "@/lib/ports/db/types";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { MessageRow } from "@/lib/domain/messages/serialize";
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
  const found = await channelOf(ctx.db, event);
  if (!found) return "no_channel";
  const channel = found.channel;
  if (channel.status === "disconnected") return "channel_disconnected";
  switch (event.kind) {
    case "message":
      // seen and the project are read for every new message; an edit or delete (neither) finds its original instead.
      return applyMessage(ctx, channel, event, options, { seen: found.seen ?? false, project: found.project ?? null });
    case "status":
      // stored is read for every status that names a message; a watermark (none) matches by time instead.
      return applyProviderStatus(ctx, channel, event, found.stored ?? null);
    case "echo":
      return applyEcho(ctx, channel, event, options);
    case "call":
      return applyCall(ctx, channel, event);
    case "identity_change":
      return applyIdentityChange(ctx, channel, event);
  }
}

/**
 * The item's channel, and what its first step reads on it, in the same round trip: for a customer's
 * new message whether it is stored already (the dedupe check) and the project it goes to, for a status the message it names
 * (null: not stored yet). Undefined for the other items, whose first step reads nothing of the kind.
 */
async function channelOf(
  db: Db,
  event: Exclude<InboundEvent, { kind: "flow_status" | "template_status" }>,
): Promise<{ channel: ChannelRow; seen?: boolean; project?: ProjectRow | null; stored?: MessageRow | null } | undefined> {
  const key = { platform: event.platform, sender: event.senderId };
  if (event.kind === "message" && event.message.type !== "edit" && event.message.type !== "revoke") {
    return (await channelBySenderSeeing(db).execute({ ...key, providerId: event.message.id, address: addressOf(event.from) }))[0];
  }
  if (event.kind === "status" && event.platform_message_id !== "") {
    const [row] = await channelBySenderWithMessage(db).execute({ ...key, providerId: event.platform_message_id });
    return row && { channel: row.channel, stored: row.message };
  }
  const [channel] = await channelBySender(db).execute(key);
  return channel && { channel };
}
