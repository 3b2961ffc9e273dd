import type { Capability } from "../types";
import type { Report } from "../findings";
import type { ReadinessScope } from "../scope";
import { joinList } from "../text";
import { ROUTING_SENTENCES } from "@/lib/shared/routing-modes";
import { checkWebhookDelivery } from "./webhook-delivery";

/**
 * webhook. not_applicable: no path forwards inbound to the webhook (none routes EXTERNAL) and no
 * webhook_url is set. With a webhook_url set it is judged anyway (./webhook-delivery.ts):
 * message.status and the other events still go there.
 * blocked: a path forwards (EXTERNAL) and there is no webhook_url (WEBHOOK_URL_MISSING, blocked).
 * A missing webhook stops each path that forwards to it.
 */
export function checkWebhook(scope: ReadinessScope, report: Report): Capability {
  const { project, webhookNeeded, sandboxForwards, dedicatedForwards } = scope;
  if (webhookNeeded || scope.hasWebhook) report.require("webhook_url");
  if (scope.hasWebhook) return checkWebhookDelivery(scope, report);
  if (!webhookNeeded) {
    return {
      status: "not_applicable",
      message: `No inbound path forwards to the webhook. Routing ${scope.sandboxRoute}: ${ROUTING_SENTENCES[scope.sandboxRoute]} Set a webhook_url to receive message.status and other events.`,
    };
  }
  const pid = project.id;
  const forwardingPaths = [
    sandboxForwards ? scope.sandboxLabel : null,
    dedicatedForwards ? scope.dedicatedLabel : null,
    ...scope.othersForwarding.map((o) => o.label),
  ].filter((p): p is string => p !== null);
  const steps = [`Set your endpoint: PATCH /projects/${pid} with {"webhook_url": "https://your-app.example.com/webhooks/svc"}.`];
  if (sandboxForwards) steps.push(`Or handle inbound with native automations instead: PATCH /projects/${pid} with {"routing_mode": "FLOWS"}.`);
  if (dedicatedForwards)
    steps.push(`Or route ${scope.dedicatedLabel} to native automations: PATCH /channels/${scope.dedicated!.row.id} with {"routing_mode": "FLOWS"}.`);
  report.issue({
    code: "WEBHOOK_URL_MISSING",
    severity: "blocked",
    area: "webhook",
    title: "No webhook URL",
    message: `Inbound on ${joinList(forwardingPaths)} is forwarded to your webhook (routing_mode EXTERNAL), but the project has no webhook_url: messages are recorded and delivered nowhere.`,
    next_steps: steps,
    blocksSandbox: sandboxForwards,
    blocksProduction: dedicatedForwards,
  });
  return { status: "blocked", message: "Inbound is forwarded to the webhook (routing_mode EXTERNAL) but no webhook_url is set." };
}
