import { PAUSE_AFTER_MS } from "@/lib/domain/webhooks/schedule";
import type { Capability } from "../types";
import type { Report } from "../findings";
import type { ReadinessScope } from "../scope";
import { describeFailure } from "../text";

/**
 * webhook, when a webhook_url is set. warning: the endpoint was paused after 5 days of failures
 * (WEBHOOK_PAUSED, severity blocked: nothing is delivered until the webhook is updated, which
 * resumes it, so it stops each path that forwards to it); deliveries are failing but not paused yet
 * (WEBHOOK_FAILING, warning); no signing secret (WEBHOOK_SIGNING_DISABLED, warning). ready: otherwise.
 */
export function checkWebhookDelivery(scope: ReadinessScope, report: Report): Capability {
  const { project, facts } = scope;
  report.require("webhook_active", "webhook_healthy", "webhook_signing");
  const pid = project.id;
  const url = project.webhookUrl!;
  const lastAnswer = describeFailure(facts.lastFailure);
  const problems: string[] = [];
  if (scope.paused) {
    const waiting = facts.pausedDeliveries;
    report.issue({
      code: "WEBHOOK_PAUSED",
      severity: "blocked",
      area: "webhook",
      title: "Webhook deliveries are paused",
      message: `Deliveries to ${url} failed for 5 days, so the endpoint was paused at ${project.webhookPausedAt!.toISOString()}${lastAnswer}. ${waiting === 1 ? "1 delivery is" : `${waiting} deliveries are`} waiting; nothing is sent until the webhook is updated.`,
      next_steps: [
        `Fix the endpoint, then update the webhook (PATCH /projects/${pid}) to resume; deliveries that waited are sent then.`,
        "See what the endpoint answered: GET /webhook-deliveries?status=paused, then GET /webhook-deliveries/{id} for each attempt.",
      ],
      blocksSandbox: scope.sandboxForwards,
      blocksProduction: scope.dedicatedForwards,
    });
    problems.push("paused after 5 days of failures");
  } else if (scope.failing) {
    const since = project.webhookFailingSince!;
    report.issue({
      code: "WEBHOOK_FAILING",
      severity: "warning",
      area: "webhook",
      title: "Webhook deliveries are failing",
      message: `Every delivery to ${url} since ${since.toISOString()} has failed${lastAnswer}. Failed deliveries are retried; if the endpoint still fails at ${new Date(since.getTime() + PAUSE_AFTER_MS).toISOString()}, it is paused and deliveries wait until the webhook is updated.`,
      next_steps: [
        "Make the endpoint answer 2xx within 10 s; retries continue on their own.",
        "See what the endpoint answered: GET /webhook-deliveries?status=pending, then GET /webhook-deliveries/{id} for each attempt.",
      ],
    });
    problems.push("deliveries are failing");
  }
  if (project.webhookSecretSealed === null) {
    report.issue({
      code: "WEBHOOK_SIGNING_DISABLED",
      severity: "warning",
      area: "webhook",
      title: "Webhook deliveries are not signed",
      message: "The project has no webhook signing secret: deliveries carry no x-svc-signature, so your endpoint cannot tell them from forged requests.",
      next_steps: [`Turn signing on: POST /projects/${pid}/rotate-webhook-secret, then verify x-svc-signature on every delivery.`],
    });
    problems.push("deliveries are not signed");
  }
  return problems.length
    ? { status: "warning", message: `Webhook ${url}: ${problems.join("; ")}.` }
    : {
        status: "ready",
        message: scope.webhookNeeded
          ? `Inbound and events are sent, signed, to ${url}.`
          : `Events (message.status and others) are sent, signed, to ${url}; inbound is handled without it.`,
      };
}
