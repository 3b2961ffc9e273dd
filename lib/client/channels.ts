"use client";

import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ChannelCreateInput } from "@/lib/api/schemas/channel-requests";
import type {
  ChannelRoutingModeWire as ChannelRoutingMode,
  ChannelWire as Channel,
  PlatformWire as Platform,
  PublishReadinessWire as PublishReadiness,
} from "@/lib/api/schemas/channels";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Channels of a project. The shapes are the API's own (lib/api/schemas/channels.ts, channel-requests.ts),
 * imported as types only: nothing of the server reaches the browser bundle.
 */
export type { Channel, ChannelRoutingMode, Platform, PublishReadiness };

/** A channel's own routing modes in the order the dashboard offers them (null: it follows the project). */
export { CHANNEL_ROUTING_MODES } from "@/lib/shared/routing-modes";

export type ChannelStatus = Channel["status"];
/** The platforms a dedicated channel can be connected on (ChannelCreate). */
export type ConnectablePlatform = ChannelCreateInput["platform"];
export const CONNECTABLE_PLATFORMS = ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const satisfies readonly ConnectablePlatform[];

type CredentialField<P extends ConnectablePlatform> = keyof Extract<ChannelCreateInput, { platform: P }>["credentials"] & string;

/** Credentials per platform, exactly as ChannelCreate wants them. */
export const CREDENTIAL_FIELDS: { [P in ConnectablePlatform]: readonly CredentialField<P>[] } = {
  PLATFORM_A: ["phone_number_id", "business_account_id", "access_token"],
  PLATFORM_B: ["account_id", "access_token"],
  PLATFORM_C: ["page_id", "access_token"],
};

/**
 * POST …/channels as the connect form builds it: ChannelCreate with the credentials filled in by name
 * from CREDENTIAL_FIELDS (the server checks each one and answers field errors).
 */
export type ChannelConnectRequest = Omit<ChannelCreateInput, "credentials"> & { credentials: Record<string, string> };

const channelsKey = (projectId: string) => projectQueryKey(projectId, "channels");

/** Every channel the project can see: the shared sandbox first, then the organization's own. */
export function useChannels(projectId: string) {
  return useInfiniteQuery({
    queryKey: channelsKey(projectId),
    queryFn: ({ signal, pageParam }) =>
      projectApi<ListEnvelope<Channel>>(projectId, `/channels?limit=50${pageParam ? `&starting_after=${encodeURIComponent(pageParam)}` : ""}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
  });
}

function replaceChannel(data: InfiniteData<ListEnvelope<Channel>> | undefined, channel: Channel) {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.map((c) => (c.id === channel.id ? channel : c)) })) };
}

/** PATCH …/channels/{id} {routing_mode} (null: follow the project): the response carries the re-evaluated routing_warning. */
export function useUpdateChannelRouting(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ channelId, routingMode }: { channelId: string; routingMode: ChannelRoutingMode | null }) =>
      projectApi<Channel>(projectId, `/channels/${encodeURIComponent(channelId)}`, { method: "PATCH", body: { routing_mode: routingMode } }),
    onSuccess: (channel) => {
      client.setQueryData<InfiniteData<ListEnvelope<Channel>>>(channelsKey(projectId), (data) => replaceChannel(data, channel));
      // Other views (readiness, overview) show routing too.
      void client.invalidateQueries({ queryKey: projectQueryKey(projectId), predicate: (q) => q.queryKey[2] !== "channels" });
    },
  });
}

/** POST …/channels: connect a dedicated channel to this project. */
export function useConnectChannel(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ChannelConnectRequest) => projectApi<Channel>(projectId, "/channels", { method: "POST", body: input }),
    // The first dedicated channel also becomes the project's channel_id: refresh everything of the project.
    onSuccess: () => client.invalidateQueries({ queryKey: projectQueryKey(projectId) }),
  });
}

/**
 * DELETE …/channels/{id}: disconnect a dedicated channel (status disconnected, credentials wiped,
 * history kept). Readiness, overview and the inbox's channel list change with it.
 */
export function useDisconnectChannel(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ channelId }: { channelId: string }) => projectApi<Channel>(projectId, `/channels/${encodeURIComponent(channelId)}`, { method: "DELETE" }),
    onSuccess: (channel) => {
      client.setQueryData<InfiniteData<ListEnvelope<Channel>>>(channelsKey(projectId), (data) => replaceChannel(data, channel));
      void client.invalidateQueries({ queryKey: projectQueryKey(projectId), predicate: (q) => q.queryKey[2] !== "channels" });
    },
  });
}
