import type { BadgeTone } from "@/components/ui";
import type { CapabilityName, CapabilityStatus, OverallStatus, ReadinessIssue } from "@/lib/client/projects";

/**
 * Dashboard words for the readiness report. The server's issue text is written for API users
 * ("PATCH /projects/…"); here each known code says what it means and which page fixes it. Unknown
 * codes fall back to the server's own title and message, so a new check never shows up blank.
 */

export const OVERALL: Record<OverallStatus, { label: string; summary: string; tone: "danger" | "warning" | "info" | "success" }> = {
  blocked: {
    label: "Blocked",
    summary: "Nothing can be tested yet: neither the shared sandbox nor a number of your own works. See the blockers below.",
    tone: "danger",
  },
  sandbox_ready: {
    label: "Ready to test on the sandbox",
    summary: "Testers who join can message you on the shared sandbox. Connect your own number when you're ready to go live.",
    tone: "info",
  },
  testable_with_blockers: {
    label: "Testable, with blockers",
    summary: "You can test now, but the blockers below stop part of it from working (or your own number from going live).",
    tone: "warning",
  },
  ready_with_warnings: {
    label: "Ready, with warnings",
    summary: "Everything works. A few things deserve a look before they become problems.",
    tone: "warning",
  },
  ready: { label: "Ready", summary: "Everything is set up: your number receives, your webhook answers, deliveries are signed.", tone: "success" },
};

export const CAPABILITY_LABELS: Record<CapabilityName, string> = {
  sandbox_messaging: "Sandbox messaging",
  webhook: "Webhook",
  production_inbound: "Your own number",
  flows_publishing: "Flows publishing",
  templates: "Templates",
};

export const CAPABILITY_STATUS: Record<CapabilityStatus, { label: string; tone: BadgeTone }> = {
  ready: { label: "Ready", tone: "success" },
  testable: { label: "Testable", tone: "info" },
  warning: { label: "Warning", tone: "warning" },
  blocked: { label: "Blocked", tone: "danger" },
  not_applicable: { label: "Not used", tone: "neutral" },
};

/** Where a next step happens: a section of the overview (anchor) or another page of the project. */
export type IssueTarget = { section: "webhook" | "settings" | "sandbox" } | { page: "channels" | "sandbox" | "webhooks" };

export interface IssueGuide {
  title: string;
  /** What it means for the operator. */
  meaning: string;
  /** What to do, in dashboard terms. */
  step: string;
  action?: { label: string; target: IssueTarget };
}

export interface GuideContext {
  joinCode: string | undefined;
  sandboxNumber: string | null | undefined;
}

type Guide = (issue: ReadinessIssue, context: GuideContext) => IssueGuide;

const channelStep = { label: "Open Channels", target: { page: "channels" } } as const;

const GUIDES: Record<string, Guide> = {
  WEBHOOK_URL_MISSING: () => ({
    title: "Add a webhook URL",
    meaning:
      "This project forwards inbound messages to your webhook (routing External), but no URL is set: messages your testers send are recorded and delivered nowhere.",
    step: "Enter your endpoint's URL under Webhook below, or switch routing to Flows if svc should answer instead.",
    action: { label: "Set webhook URL", target: { section: "webhook" } },
  }),
  WEBHOOK_PAUSED: (issue) => ({
    title: "Webhook deliveries are paused",
    meaning: issue.message,
    step: "Fix your endpoint, then save the webhook URL again to resume. Deliveries that waited are sent then.",
    action: { label: "See deliveries", target: { page: "webhooks" } },
  }),
  WEBHOOK_FAILING: (issue) => ({
    title: "Webhook deliveries are failing",
    meaning: issue.message,
    step: "Make your endpoint answer with a 2xx within 10 seconds. Failed deliveries are retried on their own.",
    action: { label: "See deliveries", target: { page: "webhooks" } },
  }),
  WEBHOOK_SIGNING_DISABLED: () => ({
    title: "Webhook deliveries aren't signed",
    meaning: "Without a signing secret, your endpoint can't tell svc's deliveries from forged requests.",
    step: "Turn signing on under Webhook below, then verify x-svc-signature on every delivery.",
    action: { label: "Turn on signing", target: { section: "webhook" } },
  }),
  NO_SANDBOX_TESTERS: (_issue, { joinCode, sandboxNumber }) => ({
    title: "Nobody has joined the sandbox yet",
    meaning: "The shared sandbox only reaches testers who joined this project.",
    step: joinCode
      ? `From WhatsApp, send \`join ${joinCode}\` to ${sandboxNumber ?? "the sandbox number"}, or try it from the built-in Sandbox phone.`
      : "Join from WhatsApp with the project's join code, or try it from the built-in Sandbox phone.",
    action: { label: "Open Sandbox phone", target: { page: "sandbox" } },
  }),
  SANDBOX_TESTER_LIMIT_REACHED: (issue) => ({
    title: "Every sandbox seat is taken",
    meaning: issue.message,
    step: "To free a seat, a tester joins another project's code. To reach anyone who opted in, connect your own number.",
    action: channelStep,
  }),
  SANDBOX_UNAVAILABLE: (issue) => ({
    title: "The shared sandbox is unavailable",
    meaning: issue.message,
    step: "This is on svc's side. Try again in a little while.",
    action: channelStep,
  }),
  NO_DEDICATED_CHANNEL: () => ({
    title: "No number of your own yet",
    meaning: "You're testing on the shared sandbox, which only reaches testers who joined. Going live needs your own number.",
    step: "When you're ready to go live, connect your number on the Channels page.",
    action: { label: "Connect a number", target: { page: "channels" } },
  }),
  DEDICATED_CHANNEL_MISSING: (issue) => ({
    title: "Your number is gone",
    meaning: issue.message,
    step: "Connect your number again on the Channels page.",
    action: channelStep,
  }),
  DEDICATED_CHANNEL_NOT_CONNECTED: (issue) => ({
    title: issue.title,
    meaning: issue.message,
    step: "Check the number on the Channels page. Until it's connected, the shared sandbox is used.",
    action: channelStep,
  }),
  DEDICATED_CHANNEL_NOT_LINKED: (issue) => ({
    title: issue.title,
    meaning: issue.message,
    step: "Take the number off the other project, or use that project instead.",
    action: channelStep,
  }),
  INBOUND_RECORD_ONLY: (issue) => ({
    title: "Inbound on your number is only recorded",
    meaning: issue.message,
    step: "On the Channels page, set the number's routing to External (your webhook) or Flows (automations).",
    action: channelStep,
  }),
  // The server's text names the case (lib/domain/channels/routing-warning.ts); the sandbox follows
  // the project's routing (Settings), a number its own (Channels).
  ROUTING_WARNING: (issue) => ({
    title: issue.title,
    meaning: issue.message,
    step: "Give that routing something to answer with (an active automation, or the agent turned on for the channel), or change the routing: the project's under Settings, a number's own on Channels.",
    action: /shared sandbox/.test(issue.title) ? { label: "Review routing", target: { section: "settings" } } : channelStep,
  }),
  SANDBOX_TEMPLATES_NOT_SUPPORTED: () => ({
    title: "Templates need your own number",
    meaning: "The shared sandbox can't submit templates: templates belong to a business's own account.",
    step: "Connect your own number to submit templates. Free-form replies work on the sandbox.",
    action: { label: "Connect a number", target: { page: "channels" } },
  }),
};

/** By area, for codes this dashboard does not know yet. */
const AREA_ACTIONS: Record<string, IssueGuide["action"]> = {
  webhook: { label: "Open webhook settings", target: { section: "webhook" } },
  sandbox: { label: "Open Sandbox phone", target: { page: "sandbox" } },
  routing: { label: "Review routing", target: { section: "settings" } },
  channel: channelStep,
  publishing: channelStep,
};

export function guideFor(issue: ReadinessIssue, context: GuideContext): IssueGuide {
  const known = GUIDES[issue.code];
  if (known) return known(issue, context);
  // Publishing blockers (BUSINESS_NOT_VERIFIED, …): the server's text is already about the provider account.
  return {
    title: issue.title,
    meaning: issue.message,
    step: issue.next_steps[0] ?? "",
    action: AREA_ACTIONS[issue.area],
  };
}

/** True when the guide replaced the server's steps, so the originals are worth offering as "with the API". */
export function hasFriendlyGuide(code: string): boolean {
  return code in GUIDES;
}
