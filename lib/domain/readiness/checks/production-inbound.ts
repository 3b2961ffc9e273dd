import type { Capability } from "../types";
import type { Report } from "../findings";
import type { ReadinessScope } from "../scope";
import { dedicatedChannelBlockers } from "./dedicated-channel";

/**
 * production_inbound. ready: a dedicated channel is connected, linked (ingest routes its inbound to
 * this project) and its route delivers: EXTERNAL to a set, unpaused webhook; FLOWS to native
 * automations; AGENT to the business agent.
 * warning: it delivers, but the webhook is failing (not paused yet) or the channel has a
 *   routing_warning (e.g. FLOWS with no active automation, or AGENT with no ACTIVE agent).
 * blocked: no dedicated channel (NO_DEDICATED_CHANNEL, info: expected while testing on the
 *   sandbox), channel_id names no channel (DEDICATED_CHANNEL_MISSING), or a blocker of
 *   ./dedicated-channel.ts.
 * production_inbound_ready = ready or warning (../headline.ts).
 */
export function checkProductionInbound(scope: ReadinessScope, report: Report): Capability {
  const { project, dedicated, dedicatedRoute, dedicatedLabel } = scope;
  report.require("dedicated_channel");
  if (!project.channelId) {
    report.issue({
      code: "NO_DEDICATED_CHANNEL",
      severity: "info",
      area: "channel",
      title: "No number of your own yet",
      message: "The project uses the shared sandbox, which reaches only joined testers. Going live needs your own number.",
      next_steps: ["When you are ready to go live, connect your own number: POST /channels with {platform, phone_number, credentials}."],
    });
    return { status: "blocked", message: "No dedicated channel: production inbound needs your own number; test on the shared sandbox until then." };
  }
  if (!dedicated) {
    report.issue({
      code: "DEDICATED_CHANNEL_MISSING",
      severity: "blocked",
      area: "channel",
      title: "The project's channel no longer exists",
      message: `The project's channel_id ${project.channelId} names no channel of this organization, so no number of your own receives inbound for it.`,
      next_steps: ["Connect your number again: POST /channels with its credentials."],
      blocksProduction: true,
    });
    return { status: "blocked", message: `The project's channel ${project.channelId} does not exist.` };
  }
  report.require("dedicated_channel_connected", "dedicated_channel_linked");
  const blockers = dedicatedChannelBlockers(scope, dedicated, report);
  if (blockers.length) return { status: "blocked", message: `Production inbound does not work: ${blockers.join("; ")}.` };
  const handler = dedicatedRoute === "AGENT" ? "the business agent" : dedicatedRoute === "FLOWS" ? "native automations" : `your webhook ${project.webhookUrl}`;
  const caveats = [scope.failing && scope.dedicatedForwards ? "webhook deliveries are failing" : null, dedicated.wire.routing_warning].filter(
    (c): c is string => c !== null,
  );
  return caveats.length
    ? { status: "warning", message: `Inbound on ${dedicatedLabel} goes to ${handler}, but: ${caveats.join("; ")}` }
    : { status: "ready", message: `Inbound on ${dedicatedLabel} goes to ${handler}.` };
}
