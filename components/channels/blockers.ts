/**
 * Publish blockers (lib/domain/channels/publish-readiness.ts PUBLISH_BLOCKERS) as sentences an operator can
 * act on. A value the server adds later and this map lacks is shown raw (see describeBlocker).
 */
export interface BlockerText {
  problem: string;
  next: string;
}

const BLOCKERS: Record<string, BlockerText> = {
  CHANNEL_NOT_CONNECTED: {
    problem: "The channel isn't connected to the provider.",
    next: "Connect it again with valid credentials.",
  },
  MISSING_WABA: {
    problem: "No business account ID is on file for this number.",
    next: "Connect the channel again and include its business account ID.",
  },
  MISSING_CHANNEL_CREDENTIALS: {
    problem: "The channel has no stored credentials.",
    next: "Connect it again with an access token.",
  },
  META_ACCOUNT_STATUS_UNKNOWN: {
    problem: "The provider hasn't reported the business verification, account review or phone status yet.",
    next: "Nothing to do for now: the statuses arrive from the provider on their own. Check back in a few minutes.",
  },
  BUSINESS_NOT_VERIFIED: {
    problem: "The business isn't verified with the provider.",
    next: "Complete business verification in the provider's business settings.",
  },
  ACCOUNT_NOT_APPROVED: {
    problem: "The business account hasn't passed the provider's review.",
    next: "Check the account review in the provider's business settings and resolve what it asks for.",
  },
  PHONE_NOT_CONNECTED: {
    problem: "The phone number isn't connected at the provider.",
    next: "Finish registering the number in the provider's console.",
  },
  PAYMENT_STATUS_UNKNOWN: {
    problem: "The provider hasn't reported a payment status for the account.",
    next: "Add or confirm a payment method in the provider's billing settings.",
  },
  NO_PAYMENT_METHOD: {
    problem: "The account has no payment method.",
    next: "Add a payment method in the provider's billing settings.",
  },
  WHATSAPP_SENDER_NOT_READY: {
    problem: "The provider is still registering this number as a sender.",
    next: "Wait a few minutes: the status updates on its own once registration finishes.",
  },
  SANDBOX_TEMPLATES_NOT_SUPPORTED: {
    problem: "Templates can't be submitted on the shared sandbox.",
    next: "Connect your own number to submit templates. Flows still publish here for testing.",
  },
};

export function describeBlocker(code: string): BlockerText | null {
  return BLOCKERS[code] ?? null;
}
