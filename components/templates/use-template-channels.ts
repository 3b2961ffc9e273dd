"use client";

import { useMemo } from "react";
import { useChannels } from "@/lib/client/channels";
import { useProjectSettings } from "@/lib/client/webhooks";
import { channelLabel, templateChannels } from "./model/channels";

/** The project's channels that can carry templates (its own number first), and every channel's display name by id. */
export function useTemplateChannels(projectId: string) {
  const channels = useChannels(projectId);
  const project = useProjectSettings(projectId);
  const all = useMemo(() => channels.data?.pages.flatMap((page) => page.data) ?? [], [channels.data]);
  const projectChannelId = project.data?.channel_id ?? null;
  const candidates = useMemo(() => templateChannels(all, projectChannelId), [all, projectChannelId]);
  const names = useMemo(() => new Map(all.map((channel) => [channel.id, channelLabel(channel)])), [all]);
  return { query: channels, candidates, names, projectChannelId };
}
