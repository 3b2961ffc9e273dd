"use client";

import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/** Channels of a project (lib/api/schemas/channels.ts, channel-requests.ts are the shapes). */

export const CHANNEL_ROUTING_MODES = ["EXTERNAL", "FLOWS", "NONE"] as const;
export type ChannelRoutingMode = (typeof CHANNEL_ROUTING_MODES)[number];

export type ChannelStatus = "connected" | "pending" | "disconnected" | "error";
export type Platform = "PLATFORM_A" | "PLATFORM_B" | "PLATFORM_C" | "SMS" | "PLATFORM_D" | "EMAIL";
/** The platforms a dedicated channel can be connected on (ChannelCreate). */
export const CONNECTABLE_PLATFORMS = ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const;
export type ConnectablePlatform = (typeof CONNECTABLE_PLATFORMS)[number];

export interface PublishReadiness {
  mode: "sandbox" | "dedicated";
  can_publish_flows: boolean;
  can_submit_templates: boolean;
  business_verification_status: string | null;
  account_review_status: string | null;
  phone_number_status: string | null;
  blockers: string[];
}

export interface Channel {
  object: "channel";
  id: string;
  channel_id: string;
  platform: Platform;
  status: ChannelStatus;
  display_name: string | null;
  phone_number: string | null;
  routing_mode: ChannelRoutingMode;
  number_mode: "sandbox" | "dedicated";
  is_sandbox: boolean;
  routing_warning: string | null;
  publish_readiness: PublishReadiness | null;
}

interface List<T> {
  object: "list";
  data: T[];
  has_more: boolean;
}

/** Credentials per platform, exactly as ChannelCreate wants them. */
export const CREDENTIAL_FIELDS: Record<ConnectablePlatform, readonly string[]> = {
  PLATFORM_A: ["phone_number_id", "business_account_id", "access_token"],
  PLATFORM_B: ["account_id", "access_token"],
  PLATFORM_C: ["page_id", "access_token"],
};

export interface ChannelCreateInput {
  platform: ConnectablePlatform;
  display_name?: string | null;
  phone_number?: string | null;
  routing_mode?: ChannelRoutingMode;
  credentials: Record<string, string>;
}

const channelsKey = (projectId: string) => projectQueryKey(projectId, "channels");

/** Every channel the project can see: the shared sandbox first, then the organization's own. */
export function useChannels(projectId: string) {
  return useInfiniteQuery({
    queryKey: channelsKey(projectId),
    queryFn: ({ signal, pageParam }) =>
      projectApi<List<Channel>>(projectId, `/channels?limit=50${pageParam ? `&starting_after=${encodeURIComponent(pageParam)}` : ""}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
  });
}

function replaceChannel(data: InfiniteData<List<Channel>> | undefined, channel: Channel) {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.map((c) => (c.id === channel.id ? channel : c)) })) };
}

/** PATCH …/channels/{id} {routing_mode}: the response carries the re-evaluated routing_warning. */
export function useUpdateChannelRouting(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ channelId, routingMode }: { channelId: string; routingMode: ChannelRoutingMode }) =>
      projectApi<Channel>(projectId, `/channels/${encodeURIComponent(channelId)}`, { method: "PATCH", body: { routing_mode: routingMode } }),
    onSuccess: (channel) => {
      client.setQueryData<InfiniteData<List<Channel>>>(channelsKey(projectId), (data) => replaceChannel(data, channel));
      // Other views (readiness, overview) show routing too.
      void client.invalidateQueries({ queryKey: projectQueryKey(projectId), predicate: (q) => q.queryKey[2] !== "channels" });
    },
  });
}

/** POST …/channels: connect a dedicated channel to this project. */
export function useConnectChannel(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ChannelCreateInput) => projectApi<Channel>(projectId, "/channels", { method: "POST", body: input }),
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
      client.setQueryData<InfiniteData<List<Channel>>>(channelsKey(projectId), (data) => replaceChannel(data, channel));
      void client.invalidateQueries({ queryKey: projectQueryKey(projectId), predicate: (q) => q.queryKey[2] !== "channels" });
    },
  });
}
