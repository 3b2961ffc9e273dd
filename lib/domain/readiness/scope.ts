import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ChannelWire, ReadinessFacts } from "./facts";
import { channelLabel } from "./text";
import { effectiveRouting, type RoutingMode } from "@/lib/shared/routing-modes";

/** Where a channel's inbound goes: its effective routing, as lib/domain/events inboundRoute routes it. */
export type Route = RoutingMode;

interface OtherPath {
  row: ChannelRow;
  wire: ChannelWire;
  label: string;
  route: Route;
}

/** The facts plus what every check derives from them the same way: labels, routes, webhook state. */
export interface ReadinessScope {
  facts: ReadinessFacts;
  project: ProjectRow;
  sandbox: ReadinessFacts["sandbox"];
  dedicated: ReadinessFacts["dedicated"];
  sandboxLabel: string;
  /** Empty when the project has no dedicated channel. */
  dedicatedLabel: string;
  connectedDedicated: ReadinessFacts["dedicated"];
  /** The dedicated channel when it is connected, else the sandbox. */
  effective: { row: ChannelRow; wire: ChannelWire };
  effectiveLabel: string;
  sandboxRoute: Route;
  /** Null unless the dedicated channel's inbound reaches this project (linked). */
  dedicatedRoute: Route | null;
  sandboxForwards: boolean;
  dedicatedForwards: boolean;
  others: OtherPath[];
  othersForwarding: OtherPath[];
  /** Some path forwards inbound to the webhook (route EXTERNAL). */
  webhookNeeded: boolean;
  hasWebhook: boolean;
  paused: boolean;
  /** Failing and not paused yet. */
  failing: boolean;
}

export function scopeOf(facts: ReadinessFacts): ReadinessScope {
  const { project, sandbox, dedicated } = facts;
  const sandboxLabel = `the shared sandbox (${sandbox.row.phoneNumber ?? sandbox.row.id})`;
  const dedicatedLabel = dedicated ? channelLabel(dedicated.row) : "";
  const connectedDedicated = dedicated && dedicated.row.status === "connected" ? dedicated : null;
  // The dedicated path counts only when its inbound reaches this project (linked); an unlinked
  // channel's inbound goes to another project.
  const sandboxRoute: Route = effectiveRouting(project.routingMode, sandbox.row);
  const dedicatedRoute: Route | null = dedicated?.linked ? effectiveRouting(project.routingMode, dedicated.row) : null;
  const others = facts.otherChannels.map((c) => ({
    ...c,
    label: channelLabel(c.row),
    route: effectiveRouting(project.routingMode, c.row),
  }));
  const othersForwarding = others.filter((o) => o.route === "EXTERNAL");
  const sandboxForwards = sandboxRoute === "EXTERNAL";
  const dedicatedForwards = dedicatedRoute === "EXTERNAL";
  const hasWebhook = project.webhookUrl !== null;
  const paused = hasWebhook && project.webhookPausedAt !== null;
  return {
    facts,
    project,
    sandbox,
    dedicated,
    sandboxLabel,
    dedicatedLabel,
    connectedDedicated,
    effective: connectedDedicated ?? sandbox,
    effectiveLabel: connectedDedicated ? dedicatedLabel : sandboxLabel,
    sandboxRoute,
    dedicatedRoute,
    sandboxForwards,
    dedicatedForwards,
    others,
    othersForwarding,
    webhookNeeded: sandboxForwards || dedicatedForwards || othersForwarding.length > 0,
    hasWebhook,
    paused,
    failing: hasWebhook && !paused && project.webhookFailingSince !== null,
  };
}
