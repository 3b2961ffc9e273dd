import type { Channel } from "@/lib/client/channels";

/**
 * Which channels can carry templates (docs/spec/decisions.md "Templates"): the project's own
 * PLATFORM_A numbers. The shared sandbox cannot (its readiness says SANDBOX_TEMPLATES_NOT_SUPPORTED),
 * nor PLATFORM_B/C. A disconnected number is history, not a candidate.
 */

/** Dedicated PLATFORM_A channels still connected (or connecting), the project's own number first. */
export function templateChannels(channels: readonly Channel[], projectChannelId: string | null | undefined): Channel[] {
  const candidates = channels.filter((channel) => !channel.is_sandbox && channel.platform === "PLATFORM_A" && channel.status !== "disconnected");
  return candidates.sort((a, b) => Number(b.id === projectChannelId) - Number(a.id === projectChannelId));
}

export const canSubmitTemplates = (channel: Channel) => channel.publish_readiness?.can_submit_templates === true;

/** The channel the builder starts on: the first that can submit (the project's own number when it can), else the first. */
export function defaultChannelId(candidates: readonly Channel[]): string {
  return (candidates.find(canSubmitTemplates) ?? candidates[0])?.id ?? "";
}

export function channelLabel(channel: Channel): string {
  const name = channel.display_name || channel.phone_number || channel.id;
  return channel.display_name && channel.phone_number ? `${name} (${channel.phone_number})` : name;
}
