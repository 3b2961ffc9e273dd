import type { Reaction } from "@/lib/domain/shared/reactions";
import type { InboundStored } from "@/lib/domain/ingest/reactions";
import { queueAutomations } from "./hook";

export const automationsOnInbound: Reaction<InboundStored> = {
  name: "automations: evaluate the message where the channel routes FLOWS",
  react: (ctx, input) => queueAutomations(ctx, { facts: input.arrival, messageType: input.message.type, messageId: input.messageId }),
};
