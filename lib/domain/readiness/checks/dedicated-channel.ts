import type { Report } from "../findings";
import type { ReadinessScope } from "../scope";
import type { ReadinessFacts } from "../facts";
import { capitalize } from "../text";
import { ROUTING_SENTENCES } from "@/lib/shared/routing-modes";

/**
 * Why the dedicated channel's inbound does not work, one phrase each for the production_inbound
 * message: not connected (DEDICATED_CHANNEL_NOT_CONNECTED), linked to another project
 * (DEDICATED_CHANNEL_NOT_LINKED), routing NONE (INBOUND_RECORD_ONLY), EXTERNAL without a webhook or
 * with a paused one (reported as issues by the webhook checks).
 */
export function dedicatedChannelBlockers(scope: ReadinessScope, dedicated: NonNullable<ReadinessFacts["dedicated"]>, report: Report): string[] {
  const { dedicatedLabel: label, dedicatedRoute, dedicatedForwards } = scope;
  const cid = dedicated.row.id;
  const blockers: string[] = [];
  if (dedicated.row.status !== "connected") {
    const pending = dedicated.row.status === "pending";
    report.issue({
      code: "DEDICATED_CHANNEL_NOT_CONNECTED",
      severity: "blocked",
      area: "channel",
      title: pending ? "Your number is still being registered" : "Your number is disconnected",
      message: pending
        ? `${capitalize(label)} is pending: the provider is still registering it. Until it is connected, the shared sandbox is the effective channel.`
        : `${capitalize(label)} is ${dedicated.row.status}: it neither sends nor receives. Until it is connected again, the shared sandbox is the effective channel.`,
      next_steps: pending
        ? [`Wait for the registration to finish; GET /channels/${cid} shows status connected when it is done.`]
        : [`Check the number with the provider, then reconnect it; GET /channels/${cid} shows status connected when it works again.`],
      blocksProduction: true,
    });
    blockers.push(`${label} is ${dedicated.row.status}`);
  }
  if (!dedicated.linked) {
    report.issue({
      code: "DEDICATED_CHANNEL_NOT_LINKED",
      severity: "blocked",
      area: "channel",
      title: "Another project receives your number's inbound",
      message: `Another project of your organization also has ${cid} as its channel_id and was linked first, so inbound on ${label} goes to that project, not this one.`,
      next_steps: ["Ask an operator of your organization to take the channel off the other project, or use that project's API key."],
      blocksProduction: true,
    });
    blockers.push(`inbound on ${label} goes to another project`);
  } else if (dedicatedRoute === "NONE") {
    report.issue({
      code: "INBOUND_RECORD_ONLY",
      severity: "blocked",
      area: "routing",
      title: "Inbound on your number is recorded only",
      message: `${capitalize(label)} routes NONE. ${ROUTING_SENTENCES.NONE}`,
      next_steps: [
        `Forward inbound to your webhook: PATCH /channels/${cid} with {"routing_mode": "EXTERNAL"}.`,
        `Or answer it with native automations: PATCH /channels/${cid} with {"routing_mode": "FLOWS"}.`,
      ],
      blocksProduction: true,
    });
    blockers.push(`${label} routes NONE (record only)`);
  } else if (dedicatedForwards && !scope.hasWebhook) {
    blockers.push("inbound is forwarded to the webhook but no webhook_url is set");
  } else if (dedicatedForwards && scope.paused) {
    blockers.push("the webhook is paused");
  }
  return blockers;
}
