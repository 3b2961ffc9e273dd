import type { Claimer } from "@/lib/domain/shared/reactions";
import type { InboundArrival, InboundClaim } from "@/lib/domain/ingest/reactions";
import { completeIntent, intentForInbound } from "./complete";

/** A registration link's token in the customer's first message (docs/spec/decisions.md "Registration intents"). */
export const registrationLinkClaim: Claimer<InboundArrival, InboundClaim> = {
  name: "registration-intents: a registration link's token",
  async claim(ctx, arrival) {
    const found = await intentForInbound(ctx, arrival.channel, arrival.text);
    if (!found) return null;
    return {
      projectId: found.intent.projectId,
      joinCode: found.project.joinCode,
      complete: ({ contact, messageId }) => completeIntent(ctx, { intent: found.intent, contact, messageId }),
    };
  },
};
