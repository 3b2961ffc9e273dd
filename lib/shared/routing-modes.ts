/**
 * Inbound routing, said once (issue 32 item 5): what each mode does, and which mode a channel
 * follows. The server (ingest, the agent, automations, warnings, readiness, config) and the dashboard
 * read both from here, so the words and the rule cannot drift apart. Pure: no server-only imports.
 *
 * Truth (docs/spec/service-spec.md Channel.routing_mode and Events → Delivery rule 5;
 * docs/spec/decisions.md "Project routing_mode AGENT", "Automations", "Business agents"; and
 * lib/domain/events inboundRoute, which routes every inbound message by effectiveRouting below).
 */
export const PROJECT_ROUTING_MODES = ["EXTERNAL", "FLOWS", "AGENT"] as const;
export const CHANNEL_ROUTING_MODES = ["EXTERNAL", "FLOWS", "NONE"] as const;

export type ProjectRoutingMode = (typeof PROJECT_ROUTING_MODES)[number];
/** A dedicated channel's own setting; null on the wire and in the row: it follows its project. */
export type ChannelRoutingMode = (typeof CHANNEL_ROUTING_MODES)[number];
export type RoutingMode = ProjectRoutingMode | ChannelRoutingMode;

/** One sentence per mode: what happens to an inbound message, the webhook, automations and the agent. */
export const ROUTING_SENTENCES: Record<RoutingMode, string> = {
  EXTERNAL: "Inbound messages are forwarded to your webhook as message.received; no automation or agent answers them.",
  FLOWS:
    "Your active automations answer inbound messages; they are not forwarded to your webhook, so a message no automation matches is recorded and gets no answer.",
  AGENT:
    "The channel's business agent answers inbound messages while it owns the conversation; no automation runs, and conversations it does not own (no active agent, or taken over by your service) are forwarded to your webhook.",
  NONE: "Inbound messages are recorded only: they are not forwarded to your webhook and nothing answers them.",
};

/** A few words per mode, for a control or a badge (the code itself stays visible beside it). */
export const ROUTING_LABELS: Record<RoutingMode, string> = {
  EXTERNAL: "Your webhook",
  FLOWS: "Automations",
  AGENT: "Business agent",
  NONE: "Record only",
};

/** What every mode leaves alone: events about your own sends and the project are delivered whatever the routing. */
export const ROUTING_EVENTS_NOTE = "Status updates (message.status) and other events reach your webhook in every mode.";

/** The override rule, in the words the dashboard shows wherever AGENT (or "follow the project") is offered. */
export const ROUTING_RULE =
  "A dedicated channel with its own routing keeps it; a channel set to follow the project, and the shared sandbox (for testers who joined this project), use the project's routing.";

/** The label of a dedicated channel's "no routing of its own" choice. */
export const FOLLOW_PROJECT_LABEL = "Project's routing";

/** A channel as routing sees it: the shared sandbox, or a dedicated channel with its own mode (null: none of its own). */
export interface RoutedChannel {
  isSandbox: boolean;
  routingMode: ChannelRoutingMode | null;
}

/**
 * The mode inbound on a channel follows: a dedicated channel's own routing_mode if set, else its
 * project's; on the shared sandbox, the joined project's (the caller passes that project's mode).
 * Without a channel (not known yet), the project's.
 */
export function effectiveRouting(projectMode: ProjectRoutingMode, channel: RoutedChannel | null | undefined): RoutingMode {
  if (!channel || channel.isSandbox || channel.routingMode === null) return projectMode;
  return channel.routingMode;
}

/** The same rule for a Channel as the API returns it (the dashboard's shape). */
export function effectiveRoutingOfWire(
  projectMode: ProjectRoutingMode,
  channel: { is_sandbox: boolean; routing_mode: ChannelRoutingMode | null } | null | undefined,
): RoutingMode {
  return effectiveRouting(projectMode, channel ? { isSandbox: channel.is_sandbox, routingMode: channel.routing_mode } : null);
}
