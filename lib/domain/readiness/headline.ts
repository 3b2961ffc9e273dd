import type { Capability, CapabilityName, IssueSeverity, OverallStatus } from "./types";

/*
 * The headline (overall_status, sandbox_testable, production_inbound_ready) is read off the
 * capability rows, so it never contradicts them (the dashboard shows both):
 * sandbox_testable: capabilities.sandbox_messaging is not blocked, i.e. the shared sandbox channel is
 *   connected. Having no tester yet does not make it false (a warning whose next step is to join), and
 *   neither does a blocker further down the sandbox path (its inbound forwarded to a missing or
 *   paused webhook): sends to testers still work, so that is "testable, with blockers".
 * production_inbound_ready: capabilities.production_inbound is ready or warning (see that check).
 * overall_status: overallStatusOf, first rule that matches:
 *   1. blocked: nothing can be tested: !sandbox_testable && !production_inbound_ready (both rows
 *      blocked).
 *   2. sandbox_ready: no dedicated channel (projects.channel_id is null) and no blocked issue stops
 *      the sandbox path.
 *   3. testable_with_blockers: something can be tested, but a blocked issue stops the sandbox path,
 *      or a dedicated channel exists and production_inbound_ready is false or any issue has severity
 *      blocked (including publishing blockers such as BUSINESS_NOT_VERIFIED).
 *   4. ready_with_warnings: production works, no blocked issue, at least one warning issue.
 *   5. ready: production works, no blocked or warning issue (info issues allowed).
 */

/** sandbox_testable, read off the sandbox_messaging row: the shared sandbox works (not blocked). */
export function isSandboxTestable(capabilities: Pick<Record<CapabilityName, Capability>, "sandbox_messaging">): boolean {
  return capabilities.sandbox_messaging.status !== "blocked";
}

/** production_inbound_ready, read off the production_inbound row. */
export function isProductionInboundReady(capabilities: Pick<Record<CapabilityName, Capability>, "production_inbound">): boolean {
  return capabilities.production_inbound.status === "ready" || capabilities.production_inbound.status === "warning";
}

/**
 * The overall_status rule; see the comment at the top of this file. "blocked" (the dashboard's
 * "nothing can be tested yet") only when neither the sandbox nor the own number works; a blocker
 * further down a working path is "testable_with_blockers", never "blocked".
 */
export function overallStatusOf(input: {
  sandboxTestable: boolean;
  productionInboundReady: boolean;
  hasDedicated: boolean;
  issues: { severity: IssueSeverity; blocksSandbox?: boolean }[];
}): OverallStatus {
  if (!input.sandboxTestable && !input.productionInboundReady) return "blocked";
  const sandboxBlocked = input.issues.some((i) => i.severity === "blocked" && i.blocksSandbox === true);
  if (!input.hasDedicated) return sandboxBlocked ? "testable_with_blockers" : "sandbox_ready";
  if (!input.productionInboundReady || input.issues.some((i) => i.severity === "blocked")) return "testable_with_blockers";
  if (input.issues.some((i) => i.severity === "warning")) return "ready_with_warnings";
  return "ready";
}
