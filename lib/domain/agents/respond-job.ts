import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { withLegacyKeys } from "@/lib/jobs/legacy-keys";
import { AGENT_RESPOND_JOB, respondToMessage } from "./respond";

/**
 * A customer turn on a thread the business agent owns (respond.ts). Retries are safe for the reply
 * (keyed by the message) and the handoff (a pass is idempotent); a tool with side effects may run
 * again on a retry, as an automation's function step may. Expiry leaves room for a tool's 10 s limit.
 */
const agentRespondJob = defineJob({
  name: AGENT_RESPOND_JOB,
  // Since issue 33 (camelCase payload keys): drop the old key one release later.
  schema: withLegacyKeys(z.object({ messageId: z.string().min(1) }), { message_id: "messageId" }),
  retry: { limit: 3, delay: 2, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 20 },
  async handler(ctx, payload) {
    await respondToMessage(ctx, payload.messageId);
  },
});

export const agentRespondJobs = [agentRespondJob];
