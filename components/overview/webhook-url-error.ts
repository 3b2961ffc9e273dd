import { isApiError } from "@/lib/client/api";

/**
 * What the webhook URL form says under its field when a save was refused: the server's words for the
 * field (for an address on localhost or a private network they say how to allow it:
 * SVC_ALLOW_PRIVATE_NETWORK=true), else its message; a save that never got an answer says to retry.
 */
export function webhookUrlErrorText(error: unknown): string | undefined {
  if (!error) return undefined;
  if (isApiError(error)) return error.fieldError("webhook_url") ?? error.message;
  return "Couldn't save the URL. Try again.";
}
