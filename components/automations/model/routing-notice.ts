import type { Channel } from "@/lib/client/channels";
import type { RoutingMode } from "@/lib/client/projects";

/**
 * Whether the project's automations can fire at all (docs/spec/decisions.md "Automations (routing
 * FLOWS)"): only where the inbound channel's effective routing is FLOWS. The shared sandbox follows
 * the project's routing_mode; a dedicated channel follows its own.
 */
export interface RoutingNotice {
  tone: "warning" | "info";
  title: string;
  detail: string;
}

export type RoutingChannel = Pick<Channel, "id" | "number_mode" | "status" | "routing_mode" | "display_name" | "phone_number">;

const channelName = (channel: RoutingChannel) => channel.display_name || channel.phone_number || channel.id;

/** null when every live channel routes to FLOWS (nothing to say). */
export function routingNotice(projectMode: RoutingMode, channels: readonly RoutingChannel[]): RoutingNotice | null {
  const dedicated = channels.filter((channel) => channel.number_mode === "dedicated" && channel.status !== "disconnected");
  const flows = dedicated.filter((channel) => channel.routing_mode === "FLOWS");
  if (projectMode !== "FLOWS") {
    if (flows.length === 0) {
      return {
        tone: "warning",
        title: `Automations are stored but will not fire while routing is ${projectMode}`,
        detail:
          "Set the project's inbound routing to Flows on the Overview page. The sandbox follows the project; a dedicated channel follows its own routing.",
      };
    }
    return {
      tone: "info",
      title: `Automations fire only on ${flows.map(channelName).join(", ")}`,
      detail: `Those channels route to FLOWS. The sandbox and the other channels follow routing ${projectMode}, where automations do not fire.`,
    };
  }
  const elsewhere = dedicated.filter((channel) => channel.routing_mode !== "FLOWS");
  if (elsewhere.length === 0) return null;
  return {
    tone: "info",
    title: `Automations do not fire on ${elsewhere.map((channel) => `${channelName(channel)} (routing ${channel.routing_mode})`).join(", ")}`,
    detail: "A dedicated channel follows its own routing: set it to FLOWS on the Channels page for automations to answer there.",
  };
}
