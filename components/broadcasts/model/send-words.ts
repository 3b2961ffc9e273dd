import { isApiError } from "@/lib/client/api";
import type { BroadcastStatus } from "@/lib/client/broadcasts";

/**
 * The words around starting a broadcast: the confirmation that says exactly what will go out (which
 * template, to how many, on which channel), why Send is disabled, and the server's refusals as
 * sentences with a next step. The API's own messages name ids and paths for developers; an operator
 * on the page gets these instead (docs/api-decisions.md "Broadcasts").
 */

export interface SendFacts {
  templateName: string;
  /** Recipients the press would send to: the whole list for a send, those not sent yet for a resume. */
  count: number;
  channelName: string;
  /** The scheduled start, already formatted for the operator; null sends now. */
  scheduledFor: string | null;
}

const recipients = (n: number) => `${n.toLocaleString("en-US")} recipient${n === 1 ? "" : "s"}`;

export const NO_RECIPIENTS_REASON = "Add at least one recipient below (upload a CSV or paste numbers) before sending.";

export function sendConfirmation({ templateName, count, channelName, scheduledFor }: SendFacts) {
  const who = recipients(count);
  if (scheduledFor) {
    return {
      title: `Schedule ${templateName} to ${who} on ${channelName}?`,
      description:
        `At ${scheduledFor} each recipient gets the template once, paced to the channel's throughput. ` +
        "Until then you can pause or cancel it and still add recipients.",
      confirmLabel: `Schedule for ${who}`,
    };
  }
  return {
    title: `Send ${templateName} to ${who} on ${channelName}?`,
    description:
      "Sending starts now: each recipient gets the template once, paced to the channel's throughput. " +
      "You can pause or cancel while it sends, but messages already sent stay sent.",
    confirmLabel: `Send to ${who}`,
  };
}

export function resumeConfirmation({ templateName, count, channelName }: Omit<SendFacts, "scheduledFor">) {
  const who = recipients(count);
  return {
    title: `Resume sending ${templateName} to ${who} on ${channelName}?`,
    description: `Sending continues where it stopped: the ${who} not sent yet get the template once. Nobody already sent gets it again.`,
    confirmLabel: `Resume for ${who}`,
  };
}

const STATUS_WORDS: Record<BroadcastStatus, string> = {
  DRAFT: "a draft",
  SCHEDULED: "scheduled",
  SENDING: "already sending",
  PAUSED: "paused",
  COMPLETED: "completed",
  CANCELLED: "cancelled",
  FAILED: "failed",
};

/** Only what the sentence needs from the page: the template and channel as the operator knows them. */
export interface ErrorContext {
  templateName: string;
  channelName: string;
}

// Pressing again reuses the action's Idempotency-Key (use-action-keys.ts), which is why it is safe to say so.
const AGAIN_IS_SAFE = "Pressing the button again is safe: nobody gets the message twice.";

/** A refused or failed broadcast action as a sentence that says what to do next. */
export function actionErrorText(error: unknown, context: ErrorContext): string {
  if (!isApiError(error)) return `That didn't work${error instanceof Error ? `: ${error.message}` : "."} ${AGAIN_IS_SAFE}`;
  switch (error.code) {
    case "broadcast_has_no_recipients":
      return "This broadcast has no recipients yet, so nothing was sent. Add them below (upload a CSV or paste numbers), then send it again.";
    case "template_not_approved":
      return `${context.templateName} is not approved by the provider right now, so nothing was sent. Check it on the Templates page and send again once it is approved.`;
    case "channel_not_ready":
      return `${context.channelName} can't send right now, so nothing was sent. Reconnect it on the Channels page, then send again.`;
    case "broadcast_not_editable": {
      const status = error.body?.status;
      const now = typeof status === "string" && status in STATUS_WORDS ? ` (it is ${STATUS_WORDS[status as BroadcastStatus]})` : "";
      return `This broadcast changed since the page loaded${now}, so that action no longer applies. The page now shows what it can do.`;
    }
    case "insufficient_scope":
      return "Your role can't send or change broadcasts. Ask a developer or an admin of this organization to do it.";
    case "rate_limit":
      return `Too many requests right now. Wait a minute and press again. ${AGAIN_IS_SAFE}`;
  }
  if (error.status === 0) return `Couldn't reach svc: check your connection and press again. ${AGAIN_IS_SAFE}`;
  if (error.status >= 500) {
    const quote = error.requestId ? ` If it keeps failing, contact support with request id ${error.requestId}.` : "";
    return `Something went wrong on our side. ${AGAIN_IS_SAFE}${quote}`;
  }
  return error.message;
}
