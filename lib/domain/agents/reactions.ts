import type { Reaction } from "@/lib/domain/shared/reactions";
import type { InboundStored } from "@/lib/domain/ingest/reactions";
import { queueAgentRespond } from "./respond";

export const agentOnInbound: Reaction<InboundStored> = {
  name: "agents: answer where the channel routes AGENT and the agent owns the thread",
  react: (ctx, input) =>
    queueAgentRespond(ctx, {
      project: input.project,
      channel: input.channel,
      conversation: input.conversation,
      contactId: input.contact.id,
      messageType: input.message.type,
      messageId: input.messageId,
    }),
};
