import type { Channel } from "@/lib/client/channels";
import type { RoutingMode } from "@/lib/client/projects";
import { effectiveRoutingOfWire } from "@/lib/shared/routing-modes";

/**
 * Whether the project's automations can fire at all (docs/spec/decisions.md "Automations (routing
 * FLOWS)"): only where the inbound channel's effective routing is FLOWS (lib/shared/routing-modes.ts:
 * the shared sandbox follows the project's routing_mode; a dedicated channel its own, else the project's).
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
  const modeOf = (channel: RoutingChannel) => effectiveRoutingOfWire(projectMode, { is_sandbox: false, routing_mode: channel.routing_mode });
  const flows = dedicated.filter((channel) => modeOf(channel) === "FLOWS");
  if (projectMode !== "FLOWS") {
    if (flows.length === 0) {
      return {
        tone: "warning",
        title: `Automations are stored but will not fire while routing is ${projectMode}`,
        detail:
          "Set the project's inbound routing to Flows on the Overview page. The sandbox follows the project; a dedicated channel follows its own routing, or the project's when set to follow it.",
      };
    }
    return {
      tone: "info",
      title: `Automations fire only on ${flows.map(channelName).join(", ")}`,
      detail: `Those channels route to FLOWS. The sandbox and the other channels route ${projectMode} or their own routing, where automations do not fire.`,
    };
  }
  const elsewhere = dedicated.filter((channel) => modeOf(channel) !== "FLOWS");
  if (elsewhere.length === 0) return null;
  return {
    tone: "info",
    title: `Automations do not fire on ${elsewhere.map((channel) => `${channelName(channel)} (routing ${modeOf(channel)})`).join(", ")}`,
    detail: "A dedicated channel follows its own routing: set it to FLOWS on the Channels page for automations to answer there.",
  };
}
