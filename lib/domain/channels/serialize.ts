import { publishReadinessOf } from "@/lib/domain/readiness/publish";
import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "./sandbox";

/**
 * Non-null when inbound on this channel would be silently dropped or not forwarded (spec:
 * Channel.routing_warning). `viewer` is the key's project; `linked` is the project inbound on a
 * dedicated channel is routed to (the one whose channel_id is this channel; null when none is).
 * The shared sandbox routes each tester by the project they joined, so for it the viewer's own
 * project settings decide.
 */
export function routingWarningOf(channel: ChannelRow, viewer: ProjectRow, linked: ProjectRow | null = defaultLinked(channel, viewer)): string | null {
  if (channel.isSandbox) {
    if (viewer.routingMode === "EXTERNAL" && !viewer.webhookUrl) {
      return "Your project routes inbound to its webhook (EXTERNAL) but has no webhook_url: messages your sandbox testers send are recorded but delivered nowhere until a webhook URL is set.";
    }
    return null;
  }
  if (channel.status === "disconnected") {
    return "This channel is disconnected: inbound messages on it are acknowledged to the provider but not stored, and nothing can be sent through it. Connect the number again (POST /channels) to use it.";
  }
  if (!linked) {
    return "This channel is not the channel of any project (no project has it as channel_id): inbound messages on it are not routed to a project and are dropped.";
  }
  const whose = linked.id === viewer.id ? "the project" : `its project ${linked.id}`;
  if (linked.routingMode === "AGENT") {
    return `Inbound on this channel goes to the business agent of ${whose} (routing_mode AGENT) while the agent owns the thread: the channel's routing_mode is not applied and no automation runs. Threads your service takes (POST /business-agents/thread-control), and every thread while the channel has no ACTIVE agent, are forwarded to the webhook.`;
  }
  if (channel.routingMode === "FLOWS" && linked.routingMode === "EXTERNAL" && linked.webhookUrl) {
    return `This channel routes inbound to native automations (FLOWS) but ${whose} forwards to its webhook (EXTERNAL): messages on this channel are not forwarded to the webhook, and are dropped when no automation matches.`;
  }
  if (channel.routingMode === "NONE") {
    return "Routing is NONE: inbound messages on this channel are recorded only; nothing is forwarded or answered.";
  }
  if (channel.routingMode === "EXTERNAL" && !linked.webhookUrl) {
    return `Routing is EXTERNAL but ${whose} has no webhook_url: inbound messages are recorded but delivered nowhere until a webhook URL is set.`;
  }
  return null;
}

/** Without a lookup: the viewer when the channel is its own, else no project. */
function defaultLinked(channel: ChannelRow, viewer: ProjectRow): ProjectRow | null {
  return viewer.channelId === channel.id ? viewer : null;
}

/**
 * The Channel wire object. Pass `linked` (see routingWarningOf) for a channel that may belong to
 * another project of the organization; without it the viewer counts as linked only to its own channel.
 */
export function serializeChannel(channel: ChannelRow, viewer: ProjectRow, linked?: ProjectRow | null) {
  return {
    object: "channel" as const,
    id: channel.id,
    channel_id: channel.id,
    platform: channel.platform,
    status: channel.status,
    display_name: channel.displayName,
    phone_number: channel.phoneNumber,
    routing_mode: channel.routingMode,
    number_mode: channel.numberMode,
    is_sandbox: channel.isSandbox,
    routing_warning: routingWarningOf(channel, viewer, linked === undefined ? defaultLinked(channel, viewer) : linked),
    publish_readiness: publishReadinessOf(channel),
  };
}
