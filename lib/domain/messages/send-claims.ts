import type { Ctx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { OutboundMessage } from "@/lib/ports/provider/outbound";
import { ClaimList } from "@/lib/domain/shared/reactions";
import type { SendInput } from "./send";

/**
 * A send whose content a feature owns (a template: the channel's own, APPROVED, its FLOW buttons'
 * dispatches written alongside) is prepared by that feature before the message is written
 * (ARCHITECTURE.md, "Reactions"). Unclaimed content goes out as it came.
 */
export interface OutboundSend {
  channel: ChannelRow;
  input: SendInput;
}

export interface PreparedSend {
  message: OutboundMessage;
  alongside: SendInput["alongside"] | null;
}

export const outboundSendClaims = new ClaimList<OutboundSend, PreparedSend, Ctx>("outbound message prepared");
