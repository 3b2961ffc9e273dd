import { z } from "@/lib/api/zod";
import { Timestamp } from "./common";
import { Channel, PublishReadiness } from "./channels";
import { PROJECT_ROUTING_MODES } from "@/lib/shared/routing-modes";

const ProjectRoutingMode = z.enum(PROJECT_ROUTING_MODES);

const projectFields = {
  object: z.literal("project"),
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  routing_mode: ProjectRoutingMode,
  join_code: z.string(),
  require_opt_in: z.boolean(),
  webhook_url: z.string().nullable(),
  webhook_signing_enabled: z.boolean(),
  channel_id: z.string().nullable(),
  enrollment_channel: z.union([Channel, z.null()]),
  publish_readiness: z.union([PublishReadiness, z.null()]),
  participant_count: z.number().int(),
  flow_count: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** In lists: never the signing secret. */
export const ProjectSummary = z.object(projectFields).strict().openapi("ProjectSummary");
/** Single GET, create, update: with the signing secret. */
export const Project = z
  .object({ ...projectFields, webhook_secret: z.string().nullable() })
  .strict()
  .openapi("Project");

export const ProjectWebhookSecret = z
  .object({ object: z.literal("project_webhook_secret"), project_id: z.string(), webhook_secret: z.string() })
  .openapi("ProjectWebhookSecret");

const WebhookUrl = z
  .url({ protocol: /^https?$/, error: "Must be an http(s) URL." })
  .max(2048)
  .openapi({ description: "Where events are POSTed. Private and loopback addresses are refused in production." });

const WebhookSecret = z.string().max(200).openapi({ description: "`whsec_` + base64 of 24 to 64 bytes. Omit to have one generated; null turns signing off." });

const writable = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable(),
  routing_mode: ProjectRoutingMode,
  require_opt_in: z.boolean(),
  webhook_url: WebhookUrl.nullable(),
  webhook_secret: WebhookSecret.nullable(),
};

export const ProjectCreate = z
  .object({
    ...writable,
    description: writable.description.optional(),
    routing_mode: writable.routing_mode.optional(),
    require_opt_in: writable.require_opt_in.optional(),
    webhook_url: writable.webhook_url.optional(),
    webhook_secret: writable.webhook_secret.optional(),
  })
  .strict()
  .openapi("ProjectCreate");

export const ProjectUpdate = z.object(writable).partial().strict().openapi("ProjectUpdate");

// The wire types, for `import type` in the browser (lib/client, components): z.infer of the schemas above.
export type ProjectRoutingModeWire = z.infer<typeof ProjectRoutingMode>;
export type ProjectWire = z.infer<typeof Project>;
export type ProjectWebhookSecretWire = z.infer<typeof ProjectWebhookSecret>;
export type ProjectUpdateInput = z.input<typeof ProjectUpdate>;
