import type { Capability, CapabilityName } from "./types";
import type { ReadinessFacts } from "./facts";
import { newReport, orderFindings, toIssue } from "./findings";
import { isProductionInboundReady, isSandboxTestable, overallStatusOf } from "./headline";
import { REQUIREMENTS } from "./requirements";
import { scopeOf } from "./scope";
import { checkSandboxMessaging } from "./checks/sandbox-messaging";
import { checkWebhook } from "./checks/webhook";
import { checkProductionInbound } from "./checks/production-inbound";
import { checkRoutingWarnings } from "./checks/routing-warnings";
import { checkPublishing } from "./checks/publishing";

/**
 * ProjectReadiness (docs/spec/service-spec.md: ProjectReadiness, FriendlyIssue): one answer to "can I test, and can I go
 * live?" for a project, with every problem as a FriendlyIssue that says what to do next.
 *
 * Inbound paths, routed as ingest routes them (lib/domain/events inboundRoute): the shared sandbox
 * follows the project's routing_mode; the dedicated channel (projects.channel_id) and any other
 * channel whose inbound the project receives (lib/domain/channels linkedProjects) follow their own
 * routing_mode, else the project's (lib/shared/routing-modes.ts effectiveRouting). A path
 * "forwards to the webhook" when its route is EXTERNAL (./scope.ts).
 *
 * Each check in ./checks documents its own rule and reports its issues (./findings.ts says which
 * path each stops). The headline is read off the capability rows (./headline.ts).
 * issues: ordered as ./findings.ts orderFindings says; check order breaks ties.
 * next_steps: every issue's next steps in that order, de-duplicated (first occurrence kept).
 * requirements: the names of the checks that applied to this project, in check order (see
 *   ./requirements.ts); a check that does not apply (e.g. webhook_signing without a webhook_url) is
 *   left out.
 *
 * Pure: every rule is in the checks, every fact comes in `facts`.
 */
export function assessReadiness(facts: ReadinessFacts) {
  const scope = scopeOf(facts);
  const { project, sandbox, dedicated } = facts;
  const report = newReport();
  // Check order: the order of issues of equal rank.
  const sandboxMessaging = checkSandboxMessaging(scope, report);
  const webhook = checkWebhook(scope, report);
  const production = checkProductionInbound(scope, report);
  checkRoutingWarnings(scope, report);
  const publishing = checkPublishing(scope, report);
  const capabilities: Record<CapabilityName, Capability> = {
    sandbox_messaging: sandboxMessaging,
    webhook,
    production_inbound: production,
    flows_publishing: publishing.flows_publishing,
    templates: publishing.templates,
  };
  const ordered = orderFindings(report.findings);
  const sandboxTestable = isSandboxTestable(capabilities);
  const productionInboundReady = isProductionInboundReady(capabilities);
  return {
    object: "project_readiness" as const,
    project_id: project.id,
    project_name: project.name,
    overall_status: overallStatusOf({ sandboxTestable, productionInboundReady, hasDedicated: project.channelId !== null, issues: report.findings }),
    requirements: REQUIREMENTS.filter((r) => report.requirements.includes(r)),
    sandbox_testable: sandboxTestable,
    production_inbound_ready: productionInboundReady,
    effective_channel: scope.effective.wire,
    sandbox_channel: sandbox.wire,
    dedicated_channel: dedicated?.wire ?? null,
    capabilities,
    issues: ordered.map(toIssue),
    next_steps: [...new Set(ordered.flatMap((f) => f.next_steps))],
  };
}
