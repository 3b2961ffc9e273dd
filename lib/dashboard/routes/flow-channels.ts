import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { IdParam } from "@/lib/api/schemas/common";
import { flowChannels, publishFlowOnChannel } from "@/lib/domain/flows/flow-channels";

const FlowChannel = z.object({
  channel_id: z.string(),
  display_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  is_sandbox: z.boolean(),
  business_account_id: z.string().nullable(),
  primary: z.boolean(),
});

const FlowChannels = z.object({
  object: z.literal("flow_channels"),
  flow_id: z.string(),
  published_version: z.number().int().nullable(),
  publish_target: FlowChannel,
  senders: z.array(FlowChannel),
});

const tag = "Dashboard: flows";

/** The flow page's "where is it published" and its send dialog's channels (lib/domain/flows/flow-channels.ts). */
export const flowChannelRoutes = [
  defineRoute({
    method: "GET",
    path: "/flows/{id}/channels",
    operationId: "dashboardFlowChannels",
    summary: "Where a flow is published: the channel the next publish goes to, and the channels that can send its published version",
    tag,
    auth: "session",
    scope: "flows:read",
    params: IdParam,
    response: FlowChannels,
    handler: ({ ctx, params }) => flowChannels(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/flows/{id}/channels",
    operationId: "dashboardPublishFlowOnChannel",
    summary: "Publish a flow's published version under a channel's business account too, so that channel can send it",
    tag,
    auth: "session",
    scope: "flows:publish",
    audit: ["flow.published"],
    idempotency: "off",
    params: IdParam,
    body: z.object({ channel_id: z.string().min(1).max(100) }).strict(),
    response: FlowChannels,
    handler: ({ ctx, params, body }) => publishFlowOnChannel(ctx, params.id, body.channel_id),
  }),
];

export type FlowChannelsWire = z.infer<typeof FlowChannels>;
