import type { Ctx } from "@/lib/domain/context";
import type { Claimer, Reaction } from "@/lib/domain/shared/reactions";
import type { OutboundSend, PreparedSend } from "@/lib/domain/messages/send-claims";
import { resolveTemplateSend } from "./send-check";
import type { TemplateStatusReceived } from "@/lib/domain/ingest/reactions";
import { applyTemplateStatusChange } from "./status";

export const templateStatusFromProvider: Reaction<TemplateStatusReceived> = {
  name: "templates: store a template's review result from the provider",
  async react(ctx, change) {
    await applyTemplateStatusChange(ctx, change);
  },
};

/** A template send: the channel's own APPROVED template, its parameters checked, its FLOW buttons' dispatches alongside. */
export const templateSendClaim: Claimer<OutboundSend, PreparedSend, Ctx> = {
  name: "templates: prepare a template message",
  claim: (ctx, { channel, input }) => resolveTemplateSend(ctx, channel, input),
};
