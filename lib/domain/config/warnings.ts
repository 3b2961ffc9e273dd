import { analyzeFlow } from "@/lib/domain/flows/flow-json/analyze";
import type { ConfigDocument, RoutingMode } from "./schema";
import { isConfigOwned, type DesiredFlow } from "./desired";
import { pathOf, pointerPath, warning, type ConfigIssue } from "./issues";
import type { ConfigFacts } from "./load";

/**
 * Warnings (docs/spec/decisions.md "Config-as-code"): what the document asks for is stored, but will
 * not do what it seems to. Pure; judged on the project as it will be after the apply.
 */
export function documentWarnings(doc: ConfigDocument, desired: readonly DesiredFlow[], facts: ConfigFacts): ConfigIssue[] {
  const routing: RoutingMode = doc.project?.routing_mode ?? facts.project.routingMode;
  const webhookUrl = doc.webhook !== undefined ? doc.webhook.url : facts.project.webhookUrl;
  return [...routingWarnings(doc, routing, webhookUrl), ...groupDefaultWarnings(desired), ...findingWarnings(desired), ...unpublishedFlowWarnings(doc, facts)];
}

function routingWarnings(doc: ConfigDocument, routing: RoutingMode, webhookUrl: string | null): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (doc.automations.length > 0 && routing !== "FLOWS") {
    const where = routing === "AGENT" ? "inbound goes to the business agent" : "inbound is forwarded to the webhook";
    issues.push(
      warning(
        "automations",
        `The project routes ${routing} (${where}): these automations are stored, active, but will not fire. Set project.routing_mode to FLOWS to run them.`,
      ),
    );
  }
  if (routing === "FLOWS" && webhookUrl) {
    issues.push(
      warning(
        doc.webhook !== undefined ? "webhook.url" : "project.routing_mode",
        "The project routes FLOWS: inbound messages go to the automations and are not forwarded to the webhook as message.received (other events still are).",
      ),
    );
  }
  return issues;
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
  const issues: ConfigIssue[] = [];
  const published = (ref: string) => facts.flows.some((row) => row.status === "PUBLISHED" && (row.id === ref || (row.configKey === ref && isConfigOwned(row))));
  doc.automations.forEach((automation, a) => {
    automation.steps.forEach((step, s) => {
      const ref = step.send_flow?.flow;
      if (ref === undefined || published(ref) || !knownFlow(ref, doc, facts)) return;
      issues.push(
        warning(
          pathOf("automations", a, "steps", s, "send_flow", "flow"),
          `Flow '${ref}' is not published: this step fails until it is (POST /flows/{id}/publish).`,
        ),
      );
    });
  });
  return issues;
}

/** Unknown references are errors already; no second issue about them. */
function knownFlow(ref: string, doc: ConfigDocument, facts: ConfigFacts): boolean {
  return doc.flows.some((f) => f.key === ref) || facts.flows.some((row) => row.id === ref);
}
