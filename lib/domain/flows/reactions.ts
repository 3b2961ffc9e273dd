import type { Reaction } from "@/lib/domain/shared/reactions";
import type { FlowStatusReceived, InboundStored } from "@/lib/domain/ingest/reactions";
import { recordFlowCompletion } from "./completion";
import { applyFlowStatusChange } from "./status";

/** A customer finished a Flow: the reply carries its token and response (an nfm_reply). */
export const flowCompletionOnInbound: Reaction<InboundStored> = {
  name: "flows: record the completion of a Flow sent to the customer",
  async react(ctx, input) {
    const reply = input.message.interactive;
    if (reply?.type !== "nfm_reply" || !reply.flow_token) return;
    await recordFlowCompletion(ctx, {
      project: input.project,
      channel: input.channel,
      contact: input.contact,
      conversation: input.conversation,
      messageId: input.messageId,
      from: input.contact.phone ?? input.fromAddress,
      flowToken: reply.flow_token,
      response: reply.response ?? {},
    });
  },
};

export const flowStatusFromProvider: Reaction<FlowStatusReceived> = {
  name: "flows: store a Flow's status from the provider",
  react: (ctx, change) => applyFlowStatusChange(ctx, change),
};
