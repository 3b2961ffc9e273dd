import type { PublishBlocker } from "@/lib/domain/channels/publish-readiness";

interface BlockerText {
  title: string;
  /** What is wrong, in the developer's words. */
  explanation: string;
  /** Whether it also stops Flow publishing (mirrors FLOW_BLOCKERS in ./publish.ts); every blocker stops template submission. */
  blocksFlows: boolean;
  nextSteps: (channelId: string) => string[];
}

/** Friendly text for each PublishReadiness blocker (docs/spec/service-spec.md: PublishReadiness.blockers). */
export const BLOCKER_TEXT: Record<PublishBlocker, BlockerText> = {
  CHANNEL_NOT_CONNECTED: {
    title: "The channel is not connected",
    explanation: "The number is disconnected or in error at the provider.",
    blocksFlows: true,
    nextSteps: (id) => [`Check the number with the provider, then reconnect it; GET /channels/${id} shows status connected when it works again.`],
  },
  MISSING_WABA: {
    title: "No business account on the channel",
    explanation: "The channel was connected without the provider business account that owns the number.",
    blocksFlows: true,
    nextSteps: () => ["Connect the number with credentials.business_account_id set (POST /channels)."],
  },
  MISSING_CHANNEL_CREDENTIALS: {
    title: "The channel has no credentials",
    explanation: "The provider credentials needed to act for this number are missing.",
    blocksFlows: true,
    nextSteps: () => ["Connect the number with its credentials (POST /channels with phone_number_id, business_account_id and access_token)."],
  },
  META_ACCOUNT_STATUS_UNKNOWN: {
    title: "The provider has not reported the account status yet",
    explanation: "Business verification, account review or phone number status is not known yet; this is usual right after connecting.",
    blocksFlows: false,
    nextSteps: (id) => [`Wait for the provider to report the account status; GET /channels/${id} shows it under publish_readiness.`],
  },
  BUSINESS_NOT_VERIFIED: {
    title: "Your business is not verified",
    explanation: "The provider has not verified the business that owns this number.",
    blocksFlows: false,
    nextSteps: () => ["Complete business verification in the provider's business manager."],
  },
  ACCOUNT_NOT_APPROVED: {
    title: "Your business account is not approved",
    explanation: "The provider's review of the business account has not approved it.",
    blocksFlows: false,
    nextSteps: () => ["Check the account review in the provider's business manager and resolve what it asks for."],
  },
  PHONE_NOT_CONNECTED: {
    title: "The phone number is not connected at the provider",
    explanation: "The provider reports the number as not connected.",
    blocksFlows: true,
    nextSteps: () => ["Finish registering the phone number in the provider's business manager."],
  },
  PAYMENT_STATUS_UNKNOWN: {
    title: "The payment status is not known yet",
    explanation: "The provider has not reported whether the business account has a payment method.",
    blocksFlows: false,
    nextSteps: () => [
      "Make sure the business account has a payment method in the provider's business manager; the status updates once the provider reports it.",
    ],
  },
  NO_PAYMENT_METHOD: {
    title: "No payment method",
    explanation: "The business account has no payment method.",
    blocksFlows: false,
    nextSteps: () => ["Add a payment method to the business account in the provider's business manager."],
  },
  WHATSAPP_SENDER_NOT_READY: {
    title: "The number is still being registered",
    explanation: "The provider is still registering the number as a sender.",
    blocksFlows: true,
    nextSteps: (id) => [`Wait for the registration to finish; GET /channels/${id} shows status connected when it is done.`],
  },
  SANDBOX_TEMPLATES_NOT_SUPPORTED: {
    title: "Templates need your own number",
    explanation: "The shared sandbox cannot submit templates: templates belong to a business's own account.",
    blocksFlows: false,
    nextSteps: () => ["Connect your own PLATFORM_A number (POST /channels) to submit templates."],
  },
};
