import { ReactionList } from "@/lib/domain/shared/reactions";
import type { ChannelRow } from "./sandbox";

/** A dedicated number was connected (ARCHITECTURE.md, "Reactions"), in the connect's transaction. */
export interface ChannelConnected {
  channel: ChannelRow;
}

export const channelConnected = new ReactionList<ChannelConnected>("channel connected");
