/**
 * The ProjectReadiness vocabulary (docs/spec/service-spec.md: ProjectReadiness, FriendlyIssue). Kept free of database
 * imports so the API schema can read it.
 */

/** From least to most ready; the rule that picks one is in ./headline.ts (overallStatusOf). */
export const OVERALL_STATUSES = ["blocked", "sandbox_ready", "testable_with_blockers", "ready_with_warnings", "ready"] as const;
export type OverallStatus = (typeof OVERALL_STATUSES)[number];

export const CAPABILITY_STATUSES = ["ready", "testable", "blocked", "warning", "not_applicable"] as const;
type CapabilityStatus = (typeof CAPABILITY_STATUSES)[number];

/** Every capability a readiness report carries, always all of them, in this order. */
export const CAPABILITY_NAMES = ["sandbox_messaging", "webhook", "production_inbound", "flows_publishing", "templates"] as const;
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

export const ISSUE_SEVERITIES = ["blocked", "warning", "info"] as const;
export type IssueSeverity = (typeof ISSUE_SEVERITIES)[number];

type IssueArea = "sandbox" | "webhook" | "routing" | "channel" | "publishing";

export interface Capability {
  status: CapabilityStatus;
  message: string;
}

/** docs/spec/service-spec.md: FriendlyIssue. */
export interface FriendlyIssue {
  code: string;
  severity: IssueSeverity;
  area: IssueArea;
  title: string;
  message: string;
  next_steps: string[];
}
