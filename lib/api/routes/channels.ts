import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Channel } from "@/lib/api/schemas/channels";
import { ChannelCreate, ChannelUpdate } from "@/lib/api/schemas/channel-requests";
import { createChannel, getChannel, listChannels, updateChannel } from "@/lib/domain/channels";
import { disconnectChannel } from "@/lib/domain/channels/disconnect";

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
    audit: ["channel.connected"],
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
    audit: ["channel.routing_changed"],
    params: IdParam,
    body: ChannelUpdate,
    response: Channel,
    handler: ({ ctx, params, body }) => updateChannel(ctx, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/channels/{id}",
    operationId: "deleteChannel",
    summary: "Disconnect a dedicated channel",
    description:
      "Sets the channel's status to disconnected and wipes its stored credentials; its conversations and messages are kept. From then on sends through it are refused (412 channel_not_ready) and inbound for it is acknowledged to the provider but not stored. Disconnecting an already disconnected channel answers it unchanged. The shared sandbox cannot be disconnected (422 unprocessable). To use the number again, connect it again (POST /channels).",
    tag,
    scope: "channels:write",
    audit: ["channel.disconnected"],
    params: IdParam,
    response: Channel,
    handler: ({ ctx, params }) => disconnectChannel(ctx, params.id),
  }),
];
