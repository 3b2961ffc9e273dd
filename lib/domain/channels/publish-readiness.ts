import type { channels } from "@/lib/db/schema";

type ChannelRow = typeof channels.$inferSelect;

export const PUBLISH_BLOCKERS = [
  "CHANNEL_NOT_CONNECTED",
  "MISSING_WABA",
  "MISSING_CHANNEL_CREDENTIALS",
  "META_ACCOUNT_STATUS_UNKNOWN",
  "BUSINESS_NOT_VERIFIED",
  "ACCOUNT_NOT_APPROVED",
  "PHONE_NOT_CONNECTED",
  "PAYMENT_STATUS_UNKNOWN",
  "NO_PAYMENT_METHOD",
  "WHATSAPP_SENDER_NOT_READY",
  "SANDBOX_TEMPLATES_NOT_SUPPORTED",
] as const;

export type PublishBlocker = (typeof PUBLISH_BLOCKERS)[number];

export interface PublishReadiness {
  mode: "sandbox" | "dedicated";
  can_publish_flows: boolean;
  can_submit_templates: boolean;
  business_verification_status: string | null;
  account_review_status: string | null;
  phone_number_status: string | null;
  blockers: PublishBlocker[];
}

/** Blockers that stop a Flow publish; every blocker stops template submission. */
const FLOW_BLOCKERS: ReadonlySet<PublishBlocker> = new Set([
  "CHANNEL_NOT_CONNECTED",
  "MISSING_WABA",
  "MISSING_CHANNEL_CREDENTIALS",
  "PHONE_NOT_CONNECTED",
  "WHATSAPP_SENDER_NOT_READY",
]);

/** PublishReadiness of a PLATFORM_A channel; null for every other platform (docs/spec/service-spec.md: Channel). */
export function publishReadinessOf(channel: ChannelRow): PublishReadiness | null {
  if (channel.platform !== "PLATFORM_A") return null;
  const status = {
    business_verification_status: channel.businessVerificationStatus,
    account_review_status: channel.accountReviewStatus,
    phone_number_status: channel.phoneNumberStatus,
  };
  if (channel.isSandbox) {
    // The shared sandbox publishes Flows under the service's own business account; templates need a
    // business's own account.
    return { mode: "sandbox", can_publish_flows: true, can_submit_templates: false, ...status, blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"] };
  }
  const blockers: PublishBlocker[] = [];
  // pending: the provider is still registering the sender; disconnected / error: not connected.
  if (channel.status === "pending") blockers.push("WHATSAPP_SENDER_NOT_READY");
  else if (channel.status !== "connected") blockers.push("CHANNEL_NOT_CONNECTED");
  if (!channel.businessAccountId) blockers.push("MISSING_WABA");
  if (!channel.credentialsSealed) blockers.push("MISSING_CHANNEL_CREDENTIALS");
  // Any status the provider has not reported yet is unknown; the known ones are still judged, so a
  // known "not verified" is not hidden behind an unknown review status.
  const { businessVerificationStatus: business, accountReviewStatus: review, phoneNumberStatus: phone } = channel;
  if (!business || !review || !phone) blockers.push("META_ACCOUNT_STATUS_UNKNOWN");
  if (business && business.toLowerCase() !== "verified") blockers.push("BUSINESS_NOT_VERIFIED");
  if (review && review.toUpperCase() !== "APPROVED") blockers.push("ACCOUNT_NOT_APPROVED");
  if (phone && phone.toUpperCase() !== "CONNECTED") blockers.push("PHONE_NOT_CONNECTED");
  if (!channel.paymentStatus) blockers.push("PAYMENT_STATUS_UNKNOWN");
  else if (channel.paymentStatus.toLowerCase() === "none") blockers.push("NO_PAYMENT_METHOD");
  return {
    mode: "dedicated",
    can_publish_flows: !blockers.some((b) => FLOW_BLOCKERS.has(b)),
    can_submit_templates: blockers.length === 0,
    ...status,
    blockers,
  };
}
