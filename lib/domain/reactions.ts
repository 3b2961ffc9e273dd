import { agentOnInbound } from "@/lib/domain/agents/reactions";
import { automationsOnInbound } from "@/lib/domain/automations/reactions";
import { pauseOnTemplateStatus, recipientsFollowStatus, replyCountsForBroadcast } from "@/lib/domain/broadcasts/reactions";
import { channelConnected } from "@/lib/domain/channels/connected";
import { flowCompletionOnInbound, flowKeyOnConnect, flowStatusFromProvider, submissionForwarded } from "@/lib/domain/flows/reactions";
import { flowStatusReceived, inboundMessageClaims, inboundMessageJobs, inboundMessageStored, templateStatusReceived } from "@/lib/domain/ingest/reactions";
import { messageStatusMoved } from "@/lib/domain/messages/status-moved";
import { registrationLinkClaim } from "@/lib/domain/registration-intents/reactions";
import { templateSendClaim, templateStatusFromProvider } from "@/lib/domain/templates/reactions";
import { outboundSendClaims } from "@/lib/domain/messages/send-claims";
import { templateStatusMoved } from "@/lib/domain/templates/status-moved";
import { eventDelivered } from "@/lib/domain/webhooks/delivered";

/**
 * Which feature reacts to which core event, and in what order (ARCHITECTURE.md, "Reactions"): the one
 * place that names both sides. The core modules declare the lists and never import a feature; a new
 * feature writes its Reaction next to its verbs and adds it here. buildRuntime (lib/server/runtime.ts)
 * calls this once per process, as it registers the jobs.
 */
export function installReactions(): void {
  inboundMessageClaims.install([registrationLinkClaim]);
  // In this order: a completed Flow is recorded before the agent looks at the reply. An automation's
  // evaluation is a job written with the message, so it runs after all of them have committed.
  inboundMessageStored.install([flowCompletionOnInbound, agentOnInbound, replyCountsForBroadcast]);
  inboundMessageJobs.install([automationsOnInbound]);
  outboundSendClaims.install([templateSendClaim]);
  messageStatusMoved.install([recipientsFollowStatus]);
  flowStatusReceived.install([flowStatusFromProvider]);
  templateStatusReceived.install([templateStatusFromProvider]);
  templateStatusMoved.install([pauseOnTemplateStatus]);
  channelConnected.install([flowKeyOnConnect]);
  eventDelivered.install([submissionForwarded]);
}
