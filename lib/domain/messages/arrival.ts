import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ConversationRow } from "@/lib/domain/conversations";
import { effectiveRouting, type RoutingMode } from "@/lib/shared/routing-modes";

/**
 * What an inbound message arrived under, stored on its row in its own insert (no statement of its own):
 * the channel's effective routing and whether a person had the conversation. Automations decide by
 * them and GET /messages/{id}/automations explains from them, as they were then.
 */
export interface ArrivalFacts {
  arrivalRoutingMode: RoutingMode;
  arrivalHandoff: boolean;
}

export function arrivalFacts(project: ProjectRow, channel: ChannelRow, conversation: ConversationRow): ArrivalFacts {
  return { arrivalRoutingMode: effectiveRouting(project.routingMode, channel), arrivalHandoff: conversation.handoffStatus === "HUMAN_ACTIVE" };
}
