import { publishReadinessOf } from "@/lib/domain/readiness/publish";
import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "./sandbox";

/** Non-null when inbound on this channel would be silently dropped or not forwarded. */
export function routingWarningOf(channel: ChannelRow, project: ProjectRow): string | null {
  if (channel.isSandbox) return null;
  if (channel.routingMode === "FLOWS" && project.routingMode === "EXTERNAL" && project.webhookUrl) {
    return "This channel routes inbound to native automations (FLOWS) but the project forwards to its webhook (EXTERNAL): messages on this channel are not forwarded to the webhook, and are dropped when no automation matches.";
  }
  if (channel.routingMode === "NONE") {
    return "Routing is NONE: inbound messages on this channel are recorded only; nothing is forwarded or answered.";
  }
  if (channel.routingMode === "EXTERNAL" && !project.webhookUrl) {
    return "Routing is EXTERNAL but the project has no webhook_url: inbound messages are recorded but delivered nowhere until a webhook URL is set.";
  }
  return null;
}

export function serializeChannel(channel: ChannelRow, project: ProjectRow) {
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
    routing_warning: routingWarningOf(channel, project),
    publish_readiness: publishReadinessOf(channel),
  };
}
