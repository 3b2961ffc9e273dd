import { z } from "@/lib/api/zod";
import { Channel } from "./channels";
import { CAPABILITY_NAMES, CAPABILITY_STATUSES, ISSUE_SEVERITIES, OVERALL_STATUSES } from "@/lib/domain/readiness/types";

export const ReadinessCapability = z
  .object({
    status: z.enum(CAPABILITY_STATUSES).openapi({
      description:
        "ready: works for production. testable: works on the shared sandbox for testing. warning: works, with a caveat to look at. blocked: does not work until an issue is fixed. not_applicable: not used by this project's setup.",
    }),
    message: z.string(),
  })
  .strict()
  .openapi("ReadinessCapability");

const FriendlyIssue = z
  .object({
    code: z.string().openapi({
      description:
        "Stable machine code, e.g. WEBHOOK_URL_MISSING, WEBHOOK_PAUSED, WEBHOOK_FAILING, WEBHOOK_SIGNING_DISABLED, NO_SANDBOX_TESTERS, ROUTING_WARNING, NO_DEDICATED_CHANNEL, or a PublishReadiness blocker such as BUSINESS_NOT_VERIFIED.",
      example: "WEBHOOK_PAUSED",
    }),
    severity: z
      .enum(ISSUE_SEVERITIES)
      .openapi({ description: "blocked: something does not work until fixed. warning: works, but look at it. info: expected at this stage." }),
    area: z.string().openapi({ description: "What the issue is about: sandbox, webhook, routing, channel or publishing.", example: "webhook" }),
    title: z.string(),
    message: z.string(),
    next_steps: z.array(z.string()),
  })
  .strict()
  .openapi("FriendlyIssue");

/**
 * Channel or null. A union rather than .nullable(): the OpenAPI 3.1 generator drops the null of a
 * nullable registered schema (it emits a bare $ref), while the union keeps `anyOf: [$ref, null]`.
 */
function nullableChannel(description: string) {
  return z.union([Channel, z.null()]).openapi({ description });
}

const capabilityShape = Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, ReadinessCapability])) as Record<
  (typeof CAPABILITY_NAMES)[number],
  typeof ReadinessCapability
>;

export const ProjectReadiness = z
  .object({
    object: z.literal("project_readiness"),
    project_id: z.string(),
    project_name: z.string(),
    overall_status: z.enum(OVERALL_STATUSES).openapi({
      description:
        "First that applies: blocked (nothing can be tested: sandbox_testable and production_inbound_ready both false); sandbox_ready (no dedicated channel, and no blocked issue stops the sandbox); testable_with_blockers (something can be tested, but a blocked issue stops the sandbox path, e.g. inbound forwarded to a missing webhook, or a dedicated channel exists and production_inbound_ready is false or an issue has severity blocked); ready_with_warnings (an issue has severity warning); ready.",
    }),
    requirements: z.array(z.string()).openapi({
      description:
        "Names of the requirements checked for this project, in check order: sandbox_channel, sandbox_tester_joined, webhook_url, webhook_active, webhook_healthy, webhook_signing, dedicated_channel, dedicated_channel_connected, dedicated_channel_linked, inbound_routing, flows_publishing, template_submission. Checks that do not apply are left out.",
    }),
    sandbox_testable: z.boolean().openapi({
      description:
        "capabilities.sandbox_messaging is not blocked: the shared sandbox channel is connected, so sends to joined testers work. Having no tester yet is a warning, and a blocker further down the sandbox path (inbound forwarded to a missing or paused webhook) is an issue that makes overall_status testable_with_blockers; neither makes this false.",
    }),
    production_inbound_ready: z.boolean().openapi({
      description:
        "capabilities.production_inbound is ready or warning: a dedicated channel is connected, receives for this project, and its routing delivers.",
    }),
    effective_channel: nullableChannel("The dedicated channel when connected, else the shared sandbox. Serialized as GET /channels/{id} serializes it."),
    sandbox_channel: nullableChannel("The shared sandbox channel, as this project sees it."),
    dedicated_channel: nullableChannel("The project's own channel (channel_id), connected or not; null when it has none."),
    capabilities: z.object(capabilityShape).strict().openapi({ description: "Each capability by name." }),
    issues: z.array(FriendlyIssue).openapi({ description: "Most important first: blocked, then warning, then info." }),
    next_steps: z.array(z.string()).openapi({ description: "The issues' next steps, de-duplicated, most important first." }),
  })
  .strict()
  .openapi("ProjectReadiness");

// The wire types, for `import type` in the browser (lib/client, components): z.infer of the schemas above.
export type FriendlyIssueWire = z.infer<typeof FriendlyIssue>;
export type ProjectReadinessWire = z.infer<typeof ProjectReadiness>;
