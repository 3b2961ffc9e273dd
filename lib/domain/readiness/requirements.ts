/** Every requirement name, in check order (the `requirements` field lists those that applied). */
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
export type Requirement = (typeof REQUIREMENTS)[number];
