import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Channel } from "@/lib/api/schemas/channels";
import { ChannelCreate, ChannelUpdate } from "@/lib/api/schemas/channel-requests";
import { createChannel, getChannel, listChannels, updateChannel } from "@/lib/domain/channels";

const tag = "Channels";

export const channelRoutes = [
  defineRoute({
    method: "GET",
    path: "/channels",
    operationId: "listChannels",
    summary: "List channels: the shared sandbox and the organization's own",
    tag,
    scope: "channels:read",
    query: PageQuery,
    response: listOf(Channel, "ChannelList"),
    handler: async ({ ctx, query }) => ({ object: "list" as const, ...(await listChannels(ctx, query)) }),
  }),
  defineRoute({
    method: "POST",
    path: "/channels",
    operationId: "createChannel",
    summary: "Connect a dedicated channel",
    tag,
    scope: "channels:write",
    body: ChannelCreate,
    response: Channel,
    handler: ({ ctx, body }) => createChannel(ctx, body as Parameters<typeof createChannel>[1]),
  }),
  defineRoute({
    method: "GET",
    path: "/channels/{id}",
    operationId: "getChannel",
    summary: "Retrieve a channel, with its routing warning and publish readiness",
    tag,
    scope: "channels:read",
    params: IdParam,
    response: Channel,
    handler: ({ ctx, params }) => getChannel(ctx, params.id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/channels/{id}",
    operationId: "updateChannel",
    summary: "Change a channel's routing mode",
    tag,
    scope: "channels:write",
    params: IdParam,
    body: ChannelUpdate,
    response: Channel,
    handler: ({ ctx, params, body }) => updateChannel(ctx, params.id, body),
  }),
];
