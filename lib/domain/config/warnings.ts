import type { AutomationEntry } from "@/lib/domain/automations/definition";
import { analyzeFlow } from "@/lib/domain/flows/flow-json/analyze";
import type { ConfigDocument, RoutingMode } from "./schema";
import { isConfigOwned, type DesiredFlow } from "./desired";
import { pathOf, pointerPath, warning, type ConfigIssue } from "./issues";
import type { ChannelFact, ConfigFacts } from "./load";
import { ROUTING_EVENTS_NOTE, ROUTING_SENTENCES, effectiveRouting } from "@/lib/shared/routing-modes";

/**
 * Warnings (docs/spec/decisions.md "Config-as-code"): what the document asks for is stored, but will
 * not do what it seems to. Pure; judged on the project as it will be after the apply.
 */
export function documentWarnings(doc: ConfigDocument, desired: readonly DesiredFlow[], facts: ConfigFacts): ConfigIssue[] {
  const routing: RoutingMode = doc.project?.routing_mode ?? facts.project.routingMode;
  const webhookUrl = doc.webhook !== undefined ? doc.webhook.url : facts.project.webhookUrl;
  return [
    ...automationRoutingWarnings(doc, routing, facts.channels),
    ...webhookRoutingWarnings(doc, routing, webhookUrl),
    ...groupDefaultWarnings(desired),
    ...findingWarnings(desired),
    ...unpublishedFlowWarnings(doc, facts),
  ];
}

/**
 * Automations fire only where a channel's effective routing is FLOWS (docs/spec/decisions.md
 * "Automations"), so they are judged per channel the project receives inbound on: silent
 * everywhere → "stored, will not fire"; silent on some → where they fire and where they do not.
 */
function automationRoutingWarnings(doc: ConfigDocument, routing: RoutingMode, channels: readonly ChannelFact[]): ConfigIssue[] {
  if (doc.automations.length === 0) return [];
  const routed = channels.map((channel) => ({ name: channel.name, mode: effectiveRouting(routing, channel) }));
  const firing = routed.filter((c) => c.mode === "FLOWS");
  const silent = routed.filter((c) => c.mode !== "FLOWS");
  const named = (list: typeof routed, last = "and") =>
    joinList(
      list.map((c) => `${c.name} (${c.mode})`),
      last,
    );
  if (firing.length === 0) {
    return [
      warning(
        "automations",
        `The project routes ${routing} and no channel routes FLOWS (${named(silent)}): these automations are stored, active, but will not fire. Set project.routing_mode to FLOWS (the shared sandbox and channels that follow the project), or a channel's routing_mode to FLOWS (PATCH /channels/{id}), to run them.`,
      ),
    ];
  }
  if (silent.length === 0) return [];
  return [warning("automations", `These automations fire only on ${joinList(firing.map((c) => c.name))} (routing FLOWS), not on ${named(silent, "or")}.`)];
}

/** The project's own FLOWS routing keeps message.received away from a webhook it names. */
function webhookRoutingWarnings(doc: ConfigDocument, routing: RoutingMode, webhookUrl: string | null): ConfigIssue[] {
  if (routing !== "FLOWS" || !webhookUrl) return [];
  return [
    warning(doc.webhook !== undefined ? "webhook.url" : "project.routing_mode", `The project routes FLOWS: ${ROUTING_SENTENCES.FLOWS} ${ROUTING_EVENTS_NOTE}`),
  ];
}

function joinList(items: readonly string[], last = "and"): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`;
}

/** A group whose every entry has a locale leaves contacts of other languages without a flow. */
function groupDefaultWarnings(desired: readonly DesiredFlow[]): ConfigIssue[] {
  const groups = new Map<string, DesiredFlow[]>();
  for (const flow of desired) groups.set(flow.key, [...(groups.get(flow.key) ?? []), flow]);
  const issues: ConfigIssue[] = [];
  for (const [key, variants] of groups) {
    if (variants.some((v) => v.locale === null)) continue;
    const locales = variants.map((v) => v.locale).join(", ");
    issues.push(
      warning(
        pathOf("flows", variants[0]!.index),
        `Flow group '${key}' has no default-locale entry (one without locale): a send by config_key to a contact whose language is none of ${locales} finds no flow.`,
      ),
    );
  }
  return issues;
}

/** The flows module's own findings (the provider's rules): the flow is saved with them, but cannot be published. */
function findingWarnings(desired: readonly DesiredFlow[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const flow of desired) {
    const analysis = analyzeFlow(flow.source, { runtimeMode: flow.runtimeMode });
    const prefix = pathOf("flows", flow.index, "draft" in flow.source ? "draft" : "flow_json");
    for (const finding of analysis.validation_errors) {
      issues.push(warning(pointerPath(prefix, finding.path), `${finding.message} (${finding.code}: saved, but blocks publishing; ${finding.next_steps})`));
    }
  }
  return issues;
}

/** A send_flow step fails (flow_not_sendable) until its flow is published; apply never publishes. */
function unpublishedFlowWarnings(doc: ConfigDocument, facts: ConfigFacts): ConfigIssue[] {
  const known = (ref: string) => knownFlow(ref, doc, facts);
  return doc.automations.flatMap((automation, a) => unpublishedFlowSteps(automation, facts, known, (...path) => pathOf("automations", a, ...path)));
}

/** One automation's send_flow steps naming a known flow that is not published (the automations API judges its entry with it too). */
export function unpublishedFlowSteps(
  automation: AutomationEntry,
  facts: Pick<ConfigFacts, "flows">,
  known: (ref: string) => boolean,
  at: (...path: Array<string | number>) => string,
): ConfigIssue[] {
  const published = (ref: string) => facts.flows.some((row) => row.status === "PUBLISHED" && (row.id === ref || (row.configKey === ref && isConfigOwned(row))));
  const issues: ConfigIssue[] = [];
  automation.steps.forEach((step, s) => {
    const ref = step.send_flow?.flow;
    if (ref === undefined || published(ref) || !known(ref)) return;
    issues.push(warning(at("steps", s, "send_flow", "flow"), `Flow '${ref}' is not published: this step fails until it is (POST /flows/{id}/publish).`));
  });
  return issues;
}

/** Unknown references are errors already; no second issue about them. */
function knownFlow(ref: string, doc: ConfigDocument, facts: ConfigFacts): boolean {
  return doc.flows.some((f) => f.key === ref) || facts.flows.some((row) => row.id === ref);
}
