import { z } from "@/lib/api/zod";
import { PUBLISH_BLOCKERS } from "@/lib/domain/channels/publish-readiness";
import { PLATFORM_CODES } from "@/lib/shared/platforms";
import type { ChannelRoutingMode as SharedChannelRoutingMode } from "@/lib/shared/routing-modes";

export const PublishReadiness = z
  .object({
    mode: z.enum(["sandbox", "dedicated"]),
    can_publish_flows: z.boolean(),
    can_submit_templates: z.boolean(),
    business_verification_status: z.string().nullable(),
    account_review_status: z.string().nullable(),
    phone_number_status: z.string().nullable(),
    blockers: z.array(z.enum(PUBLISH_BLOCKERS)),
  })
  .openapi("PublishReadiness");

// The codes and what each is for: lib/shared/platforms.ts, the dashboard's one source for platform labels.
export const Platform = z.enum(PLATFORM_CODES);
// The same modes as lib/shared/routing-modes.ts (checked below), in the API's documented order.
const ChannelRoutingMode = z.enum(["NONE", "FLOWS", "EXTERNAL"] as const satisfies readonly SharedChannelRoutingMode[]);

/** A dedicated channel's own routing, or null: it follows its project's routing_mode (the only way a channel routes AGENT). */
export const ChannelRoutingSetting = ChannelRoutingMode.nullable().openapi({
  description:
    "The channel's own routing: NONE (record only), FLOWS (native automations), EXTERNAL (forward to the project webhook). null: the channel follows its project's routing_mode (EXTERNAL, FLOWS or AGENT). A dedicated channel's own value overrides the project's; the shared sandbox always follows the project each tester joined.",
});

export const Channel = z
  .object({
    object: z.literal("channel"),
    id: z.string(),
    channel_id: z.string(),
    platform: Platform,
    status: z.enum(["connected", "pending", "disconnected", "error"]),
    display_name: z.string().nullable(),
    phone_number: z.string().nullable(),
    routing_mode: ChannelRoutingSetting,
    number_mode: z.enum(["sandbox", "dedicated"]),
    is_sandbox: z.boolean(),
    routing_warning: z.string().nullable().openapi({
      description:
        "Non-null when inbound on this channel would be silently dropped, not forwarded or not answered, judged by the channel's effective routing (its own routing_mode, else its project's): FLOWS with no active automation, a FLOWS channel under an EXTERNAL project with a webhook_url, AGENT with no ACTIVE business agent on the channel, NONE, EXTERNAL without a webhook_url, a disconnected channel, or a channel that is no project's channel. Evaluated against the project the channel routes to (for the shared sandbox: the key's project).",
    }),
    publish_readiness: z.union([PublishReadiness, z.null()]),
  })
  .openapi("Channel");

// The wire types, for `import type` in the browser (lib/client, components): z.infer of the schemas above.
export type PublishReadinessWire = z.infer<typeof PublishReadiness>;
export type PlatformWire = z.infer<typeof Platform>;
export type ChannelRoutingModeWire = z.infer<typeof ChannelRoutingMode>;
export type ChannelWire = z.infer<typeof Channel>;
