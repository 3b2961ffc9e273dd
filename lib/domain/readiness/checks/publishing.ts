import type { Capability } from "../types";
import type { Report } from "../findings";
import type { ReadinessScope } from "../scope";
import { BLOCKER_TEXT } from "../blockers";

/**
 * flows_publishing and templates, from the effective channel's publish_readiness (dedicated when
 * connected, else the sandbox).
 * not_applicable: the effective channel is not PLATFORM_A (no publish_readiness).
 * flows_publishing: blocked when !can_publish_flows; else testable on the sandbox (Flows publish
 *   there for testing), ready on a dedicated channel.
 * templates: blocked when !can_submit_templates; else ready.
 * Each blocker becomes an issue coded by the blocker (area publishing, severity blocked), except
 * SANDBOX_TEMPLATES_NOT_SUPPORTED, which is info: the sandbox never submits templates.
 */
export function checkPublishing(scope: ReadinessScope, report: Report): { flows_publishing: Capability; templates: Capability } {
  const { effective, effectiveLabel } = scope;
  const readiness = effective.wire.publish_readiness;
  if (!readiness) {
    const why = `Flows and templates are PLATFORM_A features; the effective channel ${effective.row.id} is ${effective.row.platform}.`;
    return { flows_publishing: { status: "not_applicable", message: why }, templates: { status: "not_applicable", message: why } };
  }
  report.require("flows_publishing", "template_submission");
  for (const blocker of readiness.blockers) {
    const text = BLOCKER_TEXT[blocker];
    const what = text.blocksFlows ? "publish Flows or submit templates" : "submit templates";
    report.issue({
      code: blocker,
      severity: blocker === "SANDBOX_TEMPLATES_NOT_SUPPORTED" ? "info" : "blocked",
      area: "publishing",
      title: text.title,
      message: `${text.explanation} Until this is resolved you cannot ${what} on ${effectiveLabel}.`,
      next_steps: text.nextSteps(effective.row.id),
      blocksProduction: blocker !== "SANDBOX_TEMPLATES_NOT_SUPPORTED",
    });
  }
  const flowBlockers = readiness.blockers.filter((b) => BLOCKER_TEXT[b].blocksFlows);
  const flows: Capability = !readiness.can_publish_flows
    ? { status: "blocked", message: `Flows cannot be published on ${effectiveLabel}: ${(flowBlockers.length ? flowBlockers : readiness.blockers).join(", ")}.` }
    : readiness.mode === "sandbox"
      ? { status: "testable", message: `Flows publish on ${scope.sandboxLabel} for testing; publishing for customers needs your own number.` }
      : { status: "ready", message: `Flows can be published on ${effectiveLabel}.` };
  const templates: Capability = readiness.can_submit_templates
    ? { status: "ready", message: `Templates can be submitted on ${effectiveLabel}.` }
    : { status: "blocked", message: `Templates cannot be submitted on ${effectiveLabel}: ${readiness.blockers.join(", ")}.` };
  return { flows_publishing: flows, templates };
}
