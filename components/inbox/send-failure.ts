import { isApiError } from "@/lib/client/api";

/**
 * What the operator can do after a send failed, in plain words (issue 37 item 8). The server's own
 * message says what went wrong; this says what to do next, by the error code of lib/errors.ts.
 */
const NEXT_STEP: Record<string, string> = {
  outside_messaging_window:
    "The customer's 24-hour window has closed. Send an approved template (the Template tab below), or wait until the customer writes again.",
  contact_opt_in_required: "This contact has no active opt-in. Record their opt-in (POST /contacts with opt_in: true) before writing to them.",
  template_not_approved: "Pick a template whose review status is APPROVED (Templates page), then send again.",
  template_parameters_invalid: "Fill every template parameter shown under the template, then send again.",
  ai_handoff_active: "Turn human handoff on for this conversation, then send again.",
  sandbox_recipient_not_joined: "This number left the sandbox. Ask the customer to send the join code again from the Sandbox phone.",
  channel_not_ready: "The channel isn't ready. Open Channels to finish connecting it, then retry.",
  media_unsupported_on_channel: "This channel can't send that file type. Send a link in a text message instead.",
  interactive_type_unsupported_on_channel: "This channel can't show reply buttons. Send a text message instead.",
  insufficient_scope: "Your role can't send messages here. Ask an admin for the Developer role.",
  message_pair_rate_limit: "Too many messages to this customer in a short time. Wait a minute, then retry.",
  rate_limit: "Too many requests. Wait a moment, then retry.",
};

export function sendNextStep(error: unknown): string {
  if (!isApiError(error)) return "Check your connection, then retry: the same message is never sent twice.";
  if (error.status === 0) return "The server could not be reached. Check your connection, then retry: the same message is never sent twice.";
  const known = NEXT_STEP[error.code];
  if (known) return known;
  if (error.status >= 500) return "Something failed on the server. Retry in a moment; if it keeps failing, share the request id with your administrator.";
  return "Change the message as the error says, then send it again.";
}
