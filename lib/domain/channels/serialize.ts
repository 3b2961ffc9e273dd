import { publishReadinessOf } from "@/lib/domain/channels/publish-readiness";
import type { ProjectRow } from "@/lib/domain/context";
import { routingWarningOf, type AnsweringFacts } from "./routing-warning";
import type { ChannelRow } from "./sandbox";

/** Without a lookup: the viewer when the channel is its own, else no project. */
export function defaultLinked(channel: ChannelRow, viewer: ProjectRow): ProjectRow | null {
  return viewer.channelId === channel.id ? viewer : null;
}

/**
 * The Channel wire object. `linked` is the project the channel routes to (channels/index.ts
 * linkedProjects; for the shared sandbox, unused: the viewer decides); `facts` say whether an
 * automation or agent answers there (loadAnsweringFacts).
 */
export function serializeChannel(channel: ChannelRow, viewer: ProjectRow, linked: ProjectRow | null, facts: AnsweringFacts) {
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
    routing_warning: routingWarningOf(channel, viewer, linked, facts),
    publish_readiness: publishReadinessOf(channel),
  };
}
