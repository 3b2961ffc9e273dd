import type { JobAsk } from "@/lib/domain/shared/reactions";
import type { InboundTurn } from "@/lib/domain/ingest/reactions";
import { evaluationJobFor } from "./hook";

/** Written with the message (ingest's statement), so the evaluation exists exactly when the message does. */
export const automationsOnInbound: JobAsk<InboundTurn> = {
  name: "automations: evaluate the message where the channel routes FLOWS",
  job: (input) => evaluationJobFor({ facts: input.arrival, messageType: input.messageType, messageId: input.messageId }),
};
