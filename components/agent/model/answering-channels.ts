import type { BusinessAgent } from "@/lib/client/agents";
import type { Channel } from "@/lib/client/channels";
import { effectiveRoutingOfWire, type ProjectRoutingMode, type RoutingMode } from "@/lib/shared/routing-modes";

/**
 * Where the project's business agents answer customers (issue 32 item 5): a channel whose effective
 * routing is AGENT (lib/shared/routing-modes.ts, the rule ingest routes by) and whose agent is
 * ACTIVE. Judged for the channels this project's inbound arrives on as far as the dashboard knows
 * them: the shared sandbox, the project's own number, and every channel it has an agent on.
 */
export interface ChannelReach {
  channelId: string;
  name: string;
  mode: RoutingMode;
  /** The channel has a routing of its own (a dedicated channel that does not follow the project). */
  ownRouting: boolean;
  agent: BusinessAgent["status"] | null;
  answers: boolean;
  /** Why not, in plain words with the next step; null when it answers. */
  why: string | null;
}

export function answeringChannels(
  projectRouting: ProjectRoutingMode,
  projectChannelId: string | null,
  channels: readonly Channel[],
  agents: readonly Pick<BusinessAgent, "channel_id" | "status">[],
): ChannelReach[] {
  const withAgent = new Set(agents.map((agent) => agent.channel_id));
  const judged = channels.filter((c) => c.status !== "disconnected" && (c.is_sandbox || c.id === projectChannelId || withAgent.has(c.id)));
  return judged.map((channel) => {
    const mode = effectiveRoutingOfWire(projectRouting, channel);
    const ownRouting = !channel.is_sandbox && channel.routing_mode !== null;
    const agent = agents.find((a) => a.channel_id === channel.id)?.status ?? null;
    const answers = mode === "AGENT" && agent === "ACTIVE";
    return { channelId: channel.id, name: nameOf(channel), mode, ownRouting, agent, answers, why: answers ? null : whyNot(mode, ownRouting, agent) };
  });
}

/** The channel's own name, as its card on Channels shows it. */
function nameOf(channel: Channel): string {
  const name = channel.display_name || channel.phone_number || channel.id;
  return channel.is_sandbox ? `${name} (shared sandbox)` : name;
}

function whyNot(mode: RoutingMode, ownRouting: boolean, agent: ChannelReach["agent"]): string {
  if (mode !== "AGENT") {
    return ownRouting
      ? `It routes ${mode}, its own routing, which overrides the project's: set it to follow the project on Channels.`
      : `It follows the project's routing, ${mode}: switch the project to Agent on the Overview.`;
  }
  if (agent === null) return "It routes AGENT but has no agent yet: pick it above and enable one. Until then its messages go to your webhook.";
  return `It routes AGENT but its agent is ${agent}: until the agent is ACTIVE, its messages go to your webhook.`;
}
