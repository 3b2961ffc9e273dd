import { and, asc, count, desc, eq, gt } from "drizzle-orm";
import { channels, sandboxParticipants, webhookDeliveries } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import { env } from "@/lib/config";
import { getProjectRowOrThrow } from "@/lib/domain/projects";
import { linkedProjects, serializeChannels } from "@/lib/domain/channels";
import { getSandboxChannel, type ChannelRow } from "@/lib/domain/channels/sandbox";
import type { serializeChannel } from "@/lib/domain/channels/serialize";
import { PAUSE_AFTER_MS } from "@/lib/domain/webhooks/schedule";
import { BLOCKER_TEXT } from "./blockers";
import type { Capability, CapabilityName, FriendlyIssue, IssueSeverity, OverallStatus } from "./types";

/**
 * ProjectReadiness (spec: ProjectReadiness, FriendlyIssue): one answer to "can I test, and can I go
 * live?" for a project, with every problem as a FriendlyIssue that says what to do next.
 *
 * How it is decided (each check below documents its own rule):
 *
 * Inbound paths, routed as ingest routes them (lib/domain/events inboundRoute): the shared sandbox
 * follows the project's routing_mode; the dedicated channel (projects.channel_id) and any other
 * channel whose inbound the project receives (lib/domain/channels linkedProjects) follow their own
 * routing_mode, except that an AGENT project hands everything to its business agent. A path
 * "forwards to the webhook" when its route is EXTERNAL.
 *
 * Issues carry, besides their wire fields, which path they stop: `blocksSandbox` (testers' messages
 * cannot reach the integration) and `blocksProduction` (the dedicated channel cannot).
 *
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
 * issues: most important first: severity blocked, warning, info; within a severity, issues that
 *   stop the sandbox, then production, then the rest; then check order.
 * next_steps: every issue's next steps in that order, de-duplicated (first occurrence kept).
 * requirements: the names of the checks that applied to this project, in check order (see
 *   REQUIREMENTS); a check that does not apply (e.g. webhook_signing without a webhook_url) is left out.
 */

type ChannelWire = ReturnType<typeof serializeChannel>;
type Route = "EXTERNAL" | "FLOWS" | "AGENT" | "NONE";

/** Every requirement name, in check order. */
export const REQUIREMENTS = [
  /** The shared sandbox channel is connected. */
  "sandbox_channel",
  /** At least one tester joined the project on the sandbox. */
  "sandbox_tester_joined",
  /** A webhook_url is set (checked when a path forwards to the webhook, or one is set anyway). */
  "webhook_url",
  /** The webhook endpoint is not paused (checked when a webhook_url is set). */
  "webhook_active",
  /** Deliveries are not failing (checked when a webhook_url is set). */
  "webhook_healthy",
  /** Deliveries are signed (checked when a webhook_url is set). */
  "webhook_signing",
  /** The project has a dedicated channel (projects.channel_id). */
  "dedicated_channel",
  /** The dedicated channel is connected (checked when there is one). */
  "dedicated_channel_connected",
  /** Ingest routes the dedicated channel's inbound to this project (checked when there is one). */
  "dedicated_channel_linked",
  /** Inbound routing delivers, with no routing_warning on the project's channels. */
  "inbound_routing",
  /** The effective channel can publish Flows (checked for PLATFORM_A effective channels). */
  "flows_publishing",
  /** The effective channel can submit templates (checked for PLATFORM_A effective channels). */
  "template_submission",
] as const;
type Requirement = (typeof REQUIREMENTS)[number];

/** What readiness is computed from; loaded by loadReadinessFacts, judged by assessReadiness. */
export interface ReadinessFacts {
  project: ProjectRow;
  sandbox: { row: ChannelRow; wire: ChannelWire };
  /** projects.channel_id's channel (in the project's organization); null when unset or not found. */
  dedicated: { row: ChannelRow; wire: ChannelWire; linked: boolean } | null;
  /** The organization's other channels whose inbound this project receives (not its channel_id). */
  otherChannels: { row: ChannelRow; wire: ChannelWire }[];
  participantCount: number;
  participantCap: number;
  /** Deliveries waiting for a paused endpoint. */
  pausedDeliveries: number;
  /** The most recent delivery that was attempted and did not succeed, for the failure messages. */
  lastFailure: { statusCode: number | null; error: string | null } | null;
}

interface Finding extends FriendlyIssue {
  blocksSandbox: boolean;
  blocksProduction: boolean;
}

export async function getProjectReadiness(ctx: Ctx, projectId: string) {
  const project = await getProjectRowOrThrow(ctx, projectId);
  return assessReadiness(await loadReadinessFacts(ctx, project));
}

export async function loadReadinessFacts(ctx: Ctx, project: ProjectRow): Promise<ReadinessFacts> {
  const sandboxRow = await getSandboxChannel(ctx.db);
  const orgChannels = await ctx.db.select().from(channels).where(and(eq(channels.organizationId, project.organizationId), eq(channels.isSandbox, false))).orderBy(asc(channels.id));
  // Where each channel's inbound goes, as the channels module (and ingest) decides it.
  const links = await linkedProjects(ctx.db, project, orgChannels.map((c) => c.id));
  const isOurs = (c: ChannelRow) => links.get(c.id)?.id === project.id;
  const dedicatedRow = project.channelId ? orgChannels.find((c) => c.id === project.channelId) : undefined;
  // Other channels whose inbound this project receives; PLATFORM_B / C only while activated (as GET /channels lists them).
  const platformOn = (c: ChannelRow) => (c.platform === "PLATFORM_B" ? ctx.org.platformBEnabled : c.platform === "PLATFORM_C" ? ctx.org.platformCEnabled : true);
  const otherRows = orgChannels.filter((c) => c.id !== project.channelId && isOurs(c) && platformOn(c));
  // Serialized exactly as GET /channels/{id} serializes them, with this project as the viewer.
  const wires = await serializeChannels({ ...ctx, project }, [sandboxRow, ...(dedicatedRow ? [dedicatedRow] : []), ...otherRows]);
  const [sandboxWire, ...rest] = wires;
  const dedicatedWire = dedicatedRow ? rest.shift()! : null;
  const [participants] = await ctx.db.select({ n: count() }).from(sandboxParticipants).where(eq(sandboxParticipants.projectId, project.id));
  let pausedDeliveries = 0;
  let lastFailure: ReadinessFacts["lastFailure"] = null;
  if (project.webhookPausedAt || project.webhookFailingSince) {
    const [paused] = await ctx.db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.projectId, project.id), eq(webhookDeliveries.status, "paused")));
    pausedDeliveries = paused?.n ?? 0;
    const [failed] = await ctx.db
      .select({ statusCode: webhookDeliveries.lastStatusCode, error: webhookDeliveries.lastError, status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.projectId, project.id), gt(webhookDeliveries.attemptCount, 0)))
      .orderBy(desc(webhookDeliveries.updatedAt), desc(webhookDeliveries.id))
      .limit(1);
    if (failed && failed.status !== "succeeded") lastFailure = { statusCode: failed.statusCode, error: failed.error };
  }
  return {
    project,
    sandbox: { row: sandboxRow, wire: sandboxWire! },
    dedicated: dedicatedRow ? { row: dedicatedRow, wire: dedicatedWire!, linked: isOurs(dedicatedRow) } : null,
    otherChannels: otherRows.map((row, i) => ({ row, wire: rest[i]! })),
    participantCount: participants?.n ?? 0,
    participantCap: env().sandboxParticipantCap,
    pausedDeliveries,
    lastFailure,
  };
}

/** The ProjectReadiness wire object. Pure: every rule is here, every fact comes in `facts`. */
export function assessReadiness(facts: ReadinessFacts) {
  const { project, sandbox, dedicated } = facts;
  const findings: Finding[] = [];
  const requirements: Requirement[] = [];
  const issue = (finding: Omit<Finding, "blocksSandbox" | "blocksProduction"> & Partial<Pick<Finding, "blocksSandbox" | "blocksProduction">>) => {
    const full: Finding = { blocksSandbox: false, blocksProduction: false, ...finding };
    findings.push(full);
    return full;
  };
  const pid = project.id;
  const sandboxLabel = `the shared sandbox (${sandbox.row.phoneNumber ?? sandbox.row.id})`;
  const dedicatedLabel = dedicated ? channelLabel(dedicated.row) : "";
  const connectedDedicated = dedicated && dedicated.row.status === "connected" ? dedicated : null;
  const effective = connectedDedicated ?? sandbox;
  const effectiveLabel = connectedDedicated ? dedicatedLabel : sandboxLabel;

  // Routes (mirrors lib/domain/events inboundRoute). The dedicated path counts only when its inbound
  // reaches this project (linked); an unlinked channel's inbound goes to another project.
  const sandboxRoute: Route = project.routingMode;
  const dedicatedRoute: Route | null = dedicated?.linked ? (project.routingMode === "AGENT" ? "AGENT" : dedicated.row.routingMode) : null;
  const sandboxForwards = sandboxRoute === "EXTERNAL";
  const dedicatedForwards = dedicatedRoute === "EXTERNAL";
  const others = facts.otherChannels.map((c) => ({ ...c, label: channelLabel(c.row), route: (project.routingMode === "AGENT" ? "AGENT" : c.row.routingMode) as Route }));
  const othersForwarding = others.filter((o) => o.route === "EXTERNAL");
  const webhookNeeded = sandboxForwards || dedicatedForwards || othersForwarding.length > 0;
  const hasWebhook = project.webhookUrl !== null;
  const paused = hasWebhook && project.webhookPausedAt !== null;
  const failing = hasWebhook && !paused && project.webhookFailingSince !== null;

  // ---- sandbox_messaging ------------------------------------------------------------------------
  // blocked: the sandbox channel is not connected. testable: at least one tester joined (sends on
  // the sandbox reach only joined testers). Nobody joined: warning with the join instruction while
  // the sandbox is the effective channel; once the project's own number is connected the sandbox is
  // optional, so not_applicable (and the issue is info).
  requirements.push("sandbox_channel", "sandbox_tester_joined");
  let sandboxMessaging: Capability;
  const joinStep = `Send \`join ${project.joinCode}\` to ${sandbox.row.phoneNumber ?? "the sandbox number"} from the phone you test with.`;
  if (sandbox.row.status !== "connected") {
    issue({
      code: "SANDBOX_UNAVAILABLE",
      severity: "blocked",
      area: "sandbox",
      title: "The shared sandbox is unavailable",
      message: `The shared sandbox channel is ${sandbox.row.status}: nothing can be sent or received on it right now.`,
      next_steps: [`Try again later; GET /channels/${sandbox.row.id} shows status connected when it is back.`],
      blocksSandbox: true,
    });
    sandboxMessaging = { status: "blocked", message: `The shared sandbox is ${sandbox.row.status}.` };
  } else if (facts.participantCount > 0) {
    const full = facts.participantCount >= facts.participantCap;
    sandboxMessaging = {
      status: "testable",
      message: `${plural(facts.participantCount, "tester")} joined on ${sandboxLabel}; send to them with POST /messages and they can reply.`,
    };
    if (full) {
      issue({
        code: "SANDBOX_TESTER_LIMIT_REACHED",
        severity: "info",
        area: "sandbox",
        title: "Every sandbox seat is taken",
        message: `${plural(facts.participantCount, "tester")} joined, the most the sandbox allows per project (${facts.participantCap}). Someone else who sends \`join ${project.joinCode}\` is refused.`,
        next_steps: ["To free a seat, a tester joins another project's code.", "To message anyone who opted in, connect your own number (POST /channels)."],
      });
    }
  } else {
    const optional = connectedDedicated !== null;
    issue({
      code: "NO_SANDBOX_TESTERS",
      severity: optional ? "info" : "warning",
      area: "sandbox",
      title: "Nobody has joined the sandbox",
      message: `Sends on ${sandboxLabel} go only to testers who joined this project, and nobody has yet (up to ${facts.participantCap} can).`,
      next_steps: [joinStep],
    });
    sandboxMessaging = optional
      ? { status: "not_applicable", message: `Your own number is connected, so the sandbox is optional. To test there: ${joinStep}` }
      : { status: "warning", message: `Nobody has joined yet. ${joinStep}` };
  }

  // ---- webhook ----------------------------------------------------------------------------------
  // not_applicable: no path forwards inbound to the webhook (FLOWS / AGENT routing) and no
  //   webhook_url is set. With a webhook_url set it is judged anyway: message.status and the other
  //   events still go there.
  // blocked: a path forwards (EXTERNAL) and there is no webhook_url (WEBHOOK_URL_MISSING, blocked).
  // warning: the endpoint was paused after 5 days of failures (WEBHOOK_PAUSED, severity blocked:
  //   nothing is delivered until the webhook is updated, which resumes it); deliveries are failing
  //   but not paused yet (WEBHOOK_FAILING, warning); no signing secret (WEBHOOK_SIGNING_DISABLED,
  //   warning).
  // ready: otherwise.
  // A missing or paused webhook stops each path that forwards to it.
  const forwardingPaths = [sandboxForwards ? sandboxLabel : null, dedicatedForwards ? dedicatedLabel : null, ...othersForwarding.map((o) => o.label)].filter((p): p is string => p !== null);
  let webhook: Capability;
  if (webhookNeeded || hasWebhook) requirements.push("webhook_url");
  if (!hasWebhook) {
    if (webhookNeeded) {
      const steps = [`Set your endpoint: PATCH /projects/${pid} with {"webhook_url": "https://your-app.example.com/webhooks/svc"}.`];
      if (sandboxForwards) steps.push(`Or handle inbound with native automations instead: PATCH /projects/${pid} with {"routing_mode": "FLOWS"}.`);
      if (dedicatedForwards) steps.push(`Or route ${dedicatedLabel} to native automations: PATCH /channels/${dedicated!.row.id} with {"routing_mode": "FLOWS"}.`);
      issue({
        code: "WEBHOOK_URL_MISSING",
        severity: "blocked",
        area: "webhook",
        title: "No webhook URL",
        message: `Inbound on ${joinList(forwardingPaths)} is forwarded to your webhook (routing_mode EXTERNAL), but the project has no webhook_url: messages are recorded and delivered nowhere.`,
        next_steps: steps,
        blocksSandbox: sandboxForwards,
        blocksProduction: dedicatedForwards,
      });
      webhook = { status: "blocked", message: "Inbound is forwarded to the webhook (routing_mode EXTERNAL) but no webhook_url is set." };
    } else {
      webhook = {
        status: "not_applicable",
        message: `Inbound is handled by ${project.routingMode === "AGENT" ? "the business agent (routing_mode AGENT)" : "native automations (routing_mode FLOWS)"}; no webhook is needed. Set a webhook_url to receive message.status and other events.`,
      };
    }
  } else {
    requirements.push("webhook_active", "webhook_healthy", "webhook_signing");
    const url = project.webhookUrl!;
    const lastAnswer = describeFailure(facts.lastFailure);
    const problems: string[] = [];
    if (paused) {
      const waiting = facts.pausedDeliveries;
      issue({
        code: "WEBHOOK_PAUSED",
        severity: "blocked",
        area: "webhook",
        title: "Webhook deliveries are paused",
        message: `Deliveries to ${url} failed for 5 days, so the endpoint was paused at ${project.webhookPausedAt!.toISOString()}${lastAnswer}. ${waiting === 1 ? "1 delivery is" : `${waiting} deliveries are`} waiting; nothing is sent until the webhook is updated.`,
        next_steps: [
          `Fix the endpoint, then update the webhook (PATCH /projects/${pid}) to resume; deliveries that waited are sent then.`,
          "See what the endpoint answered: GET /webhook-deliveries?status=paused, then GET /webhook-deliveries/{id} for each attempt.",
        ],
        blocksSandbox: sandboxForwards,
        blocksProduction: dedicatedForwards,
      });
      problems.push("paused after 5 days of failures");
    } else if (failing) {
      const since = project.webhookFailingSince!;
      issue({
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
      issue({
        code: "WEBHOOK_SIGNING_DISABLED",
        severity: "warning",
        area: "webhook",
        title: "Webhook deliveries are not signed",
        message: "The project has no webhook signing secret: deliveries carry no x-svc-signature, so your endpoint cannot tell them from forged requests.",
        next_steps: [`Turn signing on: POST /projects/${pid}/rotate-webhook-secret, then verify x-svc-signature on every delivery.`],
      });
      problems.push("deliveries are not signed");
    }
    webhook = problems.length
      ? { status: "warning", message: `Webhook ${url}: ${problems.join("; ")}.` }
      : { status: "ready", message: webhookNeeded ? `Inbound and events are sent, signed, to ${url}.` : `Events (message.status and others) are sent, signed, to ${url}; inbound is handled without it.` };
  }

  // ---- production_inbound ------------------------------------------------------------------------
  // ready: a dedicated channel is connected, linked (ingest routes its inbound to this project) and
  //   its route delivers: EXTERNAL to a set, unpaused webhook; FLOWS to native automations; AGENT to
  //   the business agent.
  // warning: it delivers, but the webhook is failing (not paused yet) or the channel has a
  //   routing_warning (e.g. FLOWS channel under an EXTERNAL project, or an AGENT project).
  // blocked: no dedicated channel (NO_DEDICATED_CHANNEL, info: expected while testing on the
  //   sandbox), channel_id names no channel (DEDICATED_CHANNEL_MISSING), not connected
  //   (DEDICATED_CHANNEL_NOT_CONNECTED), linked to another project (DEDICATED_CHANNEL_NOT_LINKED),
  //   routing NONE (INBOUND_RECORD_ONLY), EXTERNAL without a webhook or with a paused one (the
  //   webhook issues above).
  // production_inbound_ready = ready or warning.
  requirements.push("dedicated_channel");
  let production: Capability;
  if (!project.channelId) {
    issue({
      code: "NO_DEDICATED_CHANNEL",
      severity: "info",
      area: "channel",
      title: "No number of your own yet",
      message: "The project uses the shared sandbox, which reaches only joined testers. Going live needs your own number.",
      next_steps: ["When you are ready to go live, connect your own number: POST /channels with {platform, phone_number, credentials}."],
    });
    production = { status: "blocked", message: "No dedicated channel: production inbound needs your own number; test on the shared sandbox until then." };
  } else if (!dedicated) {
    issue({
      code: "DEDICATED_CHANNEL_MISSING",
      severity: "blocked",
      area: "channel",
      title: "The project's channel no longer exists",
      message: `The project's channel_id ${project.channelId} names no channel of this organization, so no number of your own receives inbound for it.`,
      next_steps: ["Connect your number again: POST /channels with its credentials."],
      blocksProduction: true,
    });
    production = { status: "blocked", message: `The project's channel ${project.channelId} does not exist.` };
  } else {
    requirements.push("dedicated_channel_connected", "dedicated_channel_linked");
    const cid = dedicated.row.id;
    const blockers: string[] = [];
    if (dedicated.row.status !== "connected") {
      const pending = dedicated.row.status === "pending";
      issue({
        code: "DEDICATED_CHANNEL_NOT_CONNECTED",
        severity: "blocked",
        area: "channel",
        title: pending ? "Your number is still being registered" : "Your number is disconnected",
        message: pending
          ? `${capitalize(dedicatedLabel)} is pending: the provider is still registering it. Until it is connected, the shared sandbox is the effective channel.`
          : `${capitalize(dedicatedLabel)} is ${dedicated.row.status}: it neither sends nor receives. Until it is connected again, the shared sandbox is the effective channel.`,
        next_steps: pending
          ? [`Wait for the registration to finish; GET /channels/${cid} shows status connected when it is done.`]
          : [`Check the number with the provider, then reconnect it; GET /channels/${cid} shows status connected when it works again.`],
        blocksProduction: true,
      });
      blockers.push(`${dedicatedLabel} is ${dedicated.row.status}`);
    }
    if (!dedicated.linked) {
      issue({
        code: "DEDICATED_CHANNEL_NOT_LINKED",
        severity: "blocked",
        area: "channel",
        title: "Another project receives your number's inbound",
        message: `Another project of your organization also has ${cid} as its channel_id and was linked first, so inbound on ${dedicatedLabel} goes to that project, not this one.`,
        next_steps: ["Ask an operator of your organization to take the channel off the other project, or use that project's API key."],
        blocksProduction: true,
      });
      blockers.push(`inbound on ${dedicatedLabel} goes to another project`);
    } else if (dedicatedRoute === "NONE") {
      issue({
        code: "INBOUND_RECORD_ONLY",
        severity: "blocked",
        area: "routing",
        title: "Inbound on your number is recorded only",
        message: `${capitalize(dedicatedLabel)} has routing_mode NONE: inbound messages are stored but not forwarded to your webhook or answered by automations.`,
        next_steps: [
          `Forward inbound to your webhook: PATCH /channels/${cid} with {"routing_mode": "EXTERNAL"}.`,
          `Or answer it with native automations: PATCH /channels/${cid} with {"routing_mode": "FLOWS"}.`,
        ],
        blocksProduction: true,
      });
      blockers.push(`${dedicatedLabel} routes NONE (record only)`);
    } else if (dedicatedForwards && !hasWebhook) {
      blockers.push("inbound is forwarded to the webhook but no webhook_url is set");
    } else if (dedicatedForwards && paused) {
      blockers.push("the webhook is paused");
    }
    if (blockers.length) {
      production = { status: "blocked", message: `Production inbound does not work: ${blockers.join("; ")}.` };
    } else {
      const handler = dedicatedRoute === "AGENT" ? "the business agent" : dedicatedRoute === "FLOWS" ? "native automations" : `your webhook ${project.webhookUrl}`;
      const caveats = [failing && dedicatedForwards ? "webhook deliveries are failing" : null, dedicated.wire.routing_warning].filter((c): c is string => c !== null);
      production = caveats.length
        ? { status: "warning", message: `Inbound on ${dedicatedLabel} goes to ${handler}, but: ${caveats.join("; ")}` }
        : { status: "ready", message: `Inbound on ${dedicatedLabel} goes to ${handler}.` };
    }
  }

  // ---- routing warnings ----------------------------------------------------------------------------
  // Each routing_warning of the project's channels (the sandbox as this project sees it, the
  // dedicated channel, and any other channel whose inbound this project receives) becomes
  // ROUTING_WARNING (warning, area routing), unless a more specific issue above already reports the
  // same cause: EXTERNAL without a webhook_url (WEBHOOK_URL_MISSING) or the dedicated channel's NONE
  // routing (INBOUND_RECORD_ONLY).
  requirements.push("inbound_routing");
  const routed: [ChannelWire, string, Route | null][] = [[sandbox.wire, sandboxLabel, sandboxRoute]];
  if (dedicated) routed.push([dedicated.wire, dedicatedLabel, dedicated.linked ? dedicatedRoute : null]);
  for (const other of others) routed.push([other.wire, other.label, other.route]);
  for (const [wire, label, route] of routed) {
    if (!wire.routing_warning) continue;
    if (route === "EXTERNAL" && !hasWebhook) continue;
    if (route === "NONE" && wire.id === dedicated?.row.id) continue;
    issue({
      code: "ROUTING_WARNING",
      severity: "warning",
      area: "routing",
      title: `Check inbound routing on ${label}`,
      message: wire.routing_warning,
      next_steps: routingSteps(wire, project),
    });
  }

  // ---- flows_publishing / templates ------------------------------------------------------------------
  // From the effective channel's publish_readiness (dedicated when connected, else the sandbox).
  // not_applicable: the effective channel is not PLATFORM_A (no publish_readiness).
  // flows_publishing: blocked when !can_publish_flows; else testable on the sandbox (Flows publish
  //   there for testing), ready on a dedicated channel.
  // templates: blocked when !can_submit_templates; else ready.
  // Each blocker becomes an issue coded by the blocker (area publishing, severity blocked), except
  // SANDBOX_TEMPLATES_NOT_SUPPORTED, which is info: the sandbox never submits templates.
  const readiness = effective.wire.publish_readiness;
  let flowsPublishing: Capability;
  let templates: Capability;
  if (!readiness) {
    const why = `Flows and templates are PLATFORM_A features; the effective channel ${effective.row.id} is ${effective.row.platform}.`;
    flowsPublishing = { status: "not_applicable", message: why };
    templates = { status: "not_applicable", message: why };
  } else {
    requirements.push("flows_publishing", "template_submission");
    for (const blocker of readiness.blockers) {
      const text = BLOCKER_TEXT[blocker];
      const what = text.blocksFlows ? "publish Flows or submit templates" : "submit templates";
      issue({
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
    flowsPublishing = !readiness.can_publish_flows
      ? { status: "blocked", message: `Flows cannot be published on ${effectiveLabel}: ${(flowBlockers.length ? flowBlockers : readiness.blockers).join(", ")}.` }
      : readiness.mode === "sandbox"
        ? { status: "testable", message: `Flows publish on ${sandboxLabel} for testing; publishing for customers needs your own number.` }
        : { status: "ready", message: `Flows can be published on ${effectiveLabel}.` };
    templates = readiness.can_submit_templates
      ? { status: "ready", message: `Templates can be submitted on ${effectiveLabel}.` }
      : { status: "blocked", message: `Templates cannot be submitted on ${effectiveLabel}: ${readiness.blockers.join(", ")}.` };
  }

  // ---- summary -------------------------------------------------------------------------------------
  const ordered = findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => rank(a.finding) - rank(b.finding) || a.index - b.index)
    .map(({ finding }) => finding);
  const capabilities: Record<CapabilityName, Capability> = {
    sandbox_messaging: sandboxMessaging,
    webhook,
    production_inbound: production,
    flows_publishing: flowsPublishing,
    templates,
  };
  const sandboxTestable = isSandboxTestable(capabilities);
  const productionInboundReady = isProductionInboundReady(capabilities);
  return {
    object: "project_readiness" as const,
    project_id: project.id,
    project_name: project.name,
    overall_status: overallStatusOf({ sandboxTestable, productionInboundReady, hasDedicated: project.channelId !== null, issues: findings }),
    requirements: REQUIREMENTS.filter((r) => requirements.includes(r)),
    sandbox_testable: sandboxTestable,
    production_inbound_ready: productionInboundReady,
    effective_channel: effective.wire,
    sandbox_channel: sandbox.wire,
    dedicated_channel: dedicated?.wire ?? null,
    capabilities,
    issues: ordered.map(({ blocksSandbox: _s, blocksProduction: _p, ...wire }) => wire),
    next_steps: [...new Set(ordered.flatMap((f) => f.next_steps))],
  };
}

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

const SEVERITY_RANK: Record<IssueSeverity, number> = { blocked: 0, warning: 1, info: 2 };

/** Severity first; within it what stops the sandbox, then production, then the rest. */
function rank(f: Finding): number {
  return SEVERITY_RANK[f.severity] * 3 + (f.blocksSandbox ? 0 : f.blocksProduction ? 1 : 2);
}

function routingSteps(wire: ChannelWire, project: ProjectRow): string[] {
  if (wire.is_sandbox) {
    return [`The sandbox follows the project's routing: change it with PATCH /projects/${project.id} (routing_mode, webhook_url).`];
  }
  if (project.routingMode === "AGENT") {
    return [`Nothing to do if the business agent should answer on this number; to forward inbound or use automations instead, change the project's routing_mode (PATCH /projects/${project.id}).`];
  }
  if (wire.routing_mode === "FLOWS" && project.routingMode === "EXTERNAL") {
    return [
      `To forward this channel's inbound to your webhook: PATCH /channels/${wire.id} with {"routing_mode": "EXTERNAL"}.`,
      "To keep native automations on it, make sure an automation matches every message that needs an answer.",
    ];
  }
  return [`Review the channel's routing: GET /channels/${wire.id} explains routing_warning; change it with PATCH /channels/${wire.id} or PATCH /projects/${project.id}.`];
}

function channelLabel(row: ChannelRow): string {
  return `your channel ${row.id}${row.phoneNumber ? ` (${row.phoneNumber})` : ""}`;
}

function describeFailure(failure: ReadinessFacts["lastFailure"]): string {
  if (!failure) return "";
  if (failure.statusCode !== null) return ` (last answer: HTTP ${failure.statusCode})`;
  if (failure.error) return ` (last error: ${failure.error})`;
  return "";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function joinList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
