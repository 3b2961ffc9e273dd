import type { Reaction } from "@/lib/domain/shared/reactions";
import type { FlowStatusReceived, InboundStored } from "@/lib/domain/ingest/reactions";
import type { ChannelConnected } from "@/lib/domain/channels/connected";
import type { EventDelivered } from "@/lib/domain/webhooks/delivered";
import { recordFlowCompletion } from "./completion";
import { markSubmissionForwarded } from "./forwarded";
import { FLOW_KEY_JOB } from "./key-job";
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

/** Its DATA_EXCHANGE Flow key, made and registered with the provider after the connect commits (key-job.ts). */
export const flowKeyOnConnect: Reaction<ChannelConnected> = {
  name: "flows: register the number's Flow endpoint key",
  async react(ctx, { channel }) {
    if (channel.platform === "PLATFORM_A") await ctx.ports.queue.send(FLOW_KEY_JOB, { channelId: channel.id }, { tx: ctx.db });
  },
};

/** flow.completed reached the business: its submission is marked forwarded. */
export const submissionForwarded: Reaction<EventDelivered> = {
  name: "flows: mark a completed Flow's submission forwarded",
  async react(ctx, delivered) {
    if (delivered.eventType === "flow.completed") await markSubmissionForwarded(ctx.db, delivered.eventId);
  },
};
