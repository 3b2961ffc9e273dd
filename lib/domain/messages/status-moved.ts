import { ReactionList } from "@/lib/domain/shared/reactions";
import type { MessageFailure } from "@/lib/ports/provider/types";
import type { DeliveryStatus, StatusTarget } from "./status";

/**
 * Messages whose delivery status moved forward (ARCHITECTURE.md, "Reactions"), in the transaction that
 * moved them: one entry per message, with the status it reached. A provider envelope's statuses are
 * applied together, so a reaction gets them as one list and can write them as one statement.
 */
export interface StatusMoved {
  message: StatusTarget;
  status: DeliveryStatus;
  at: Date;
  failure: MessageFailure | null;
}

export const messageStatusMoved = new ReactionList<StatusMoved[]>("message status moved");
