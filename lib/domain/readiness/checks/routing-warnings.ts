import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelWire } from "../facts";
import type { Report } from "../findings";
import type { ReadinessScope, Route } from "../scope";
import { effectiveRoutingOfWire } from "@/lib/shared/routing-modes";

/**
 * inbound_routing (no capability row of its own). Each routing_warning of the project's channels
 * (the sandbox as this project sees it, the dedicated channel, and any other channel whose inbound
 * this project receives) becomes ROUTING_WARNING (warning, area routing), unless a more specific
 * issue already reports the same cause: EXTERNAL without a webhook_url (WEBHOOK_URL_MISSING) or the
 * dedicated channel's NONE routing (INBOUND_RECORD_ONLY).
 */
export function checkRoutingWarnings(scope: ReadinessScope, report: Report): void {
  const { project, dedicated } = scope;
  report.require("inbound_routing");
  const routed: [ChannelWire, string, Route | null][] = [[scope.sandbox.wire, scope.sandboxLabel, scope.sandboxRoute]];
  if (dedicated) routed.push([dedicated.wire, scope.dedicatedLabel, dedicated.linked ? scope.dedicatedRoute : null]);
  for (const other of scope.others) routed.push([other.wire, other.label, other.route]);
  for (const [wire, label, route] of routed) {
    if (!wire.routing_warning) continue;
    if (route === "EXTERNAL" && !scope.hasWebhook) continue;
    if (route === "NONE" && wire.id === dedicated?.row.id) continue;
    report.issue({
      code: "ROUTING_WARNING",
      severity: "warning",
      area: "routing",
      title: `Check inbound routing on ${label}`,
      message: wire.routing_warning,
      next_steps: routingSteps(wire, project),
    });
  }
}

/** What to do, by the routing the warning is about (the wire's text says which case it is). */
function routingSteps(wire: ChannelWire, project: ProjectRow): string[] {
  const mode = effectiveRoutingOfWire(project.routingMode, wire);
  const answerer =
    mode === "AGENT"
      ? `To have the business agent answer there, turn it on for the channel: POST /business-agents with {"channel_id": "${wire.id}", "enabled": true}.`
      : mode === "FLOWS"
        ? 'To keep native automations there, make sure an active automation matches every message that needs an answer (GET /automations; PATCH /automations/{id} with {"active": true}).'
        : null;
  if (wire.is_sandbox) {
    return [
      ...(answerer ? [answerer] : []),
      `The sandbox follows the project's routing: change it with PATCH /projects/${project.id} (routing_mode, webhook_url).`,
    ];
  }
  if (answerer) {
    return [answerer, `To forward this channel's inbound to your webhook instead: PATCH /channels/${wire.id} with {"routing_mode": "EXTERNAL"}.`];
  }
  return [
    `Review the channel's routing: GET /channels/${wire.id} explains routing_warning; change it with PATCH /channels/${wire.id} or PATCH /projects/${project.id}.`,
  ];
}
