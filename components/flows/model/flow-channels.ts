import { SANDBOX_CHANNEL_ID, type Flow, type FlowChannel, type FlowChannels } from "@/lib/client/flows";

/**
 * How the flow page names the channels a flow is published on and can be sent from (GET
 * /flows/{id}/channels): by the channel's name and number, the business account only beside it.
 */

/** "the shared sandbox", or the number's name (its phone number when it has none). */
export function channelName(channel: FlowChannel): string {
  if (channel.is_sandbox) return "the shared sandbox";
  return channel.display_name || channel.phone_number || "your number";
}

/** The name with the phone number beside it, when the name is not the number already. */
export function channelLabel(channel: FlowChannel): string {
  const name = channelName(channel);
  return !channel.is_sandbox && channel.phone_number && channel.phone_number !== name ? `${name} (${channel.phone_number})` : name;
}

export interface Where {
  /** Where the version customers get is published, or where the next publish will put it. */
  headline: string;
  /** The business account, for whoever needs the provider's id (a support request, the provider's console). */
  account: string | null;
  /** Other channels that can send it (copies under other business accounts), and a next publish going elsewhere. */
  notes: string[];
}

export function publishLocation(flow: Pick<Flow, "status" | "meta_status">, channels: FlowChannels): Where {
  const target = channels.publish_target;
  const primary = channels.senders.filter((channel) => channel.primary);
  if (channels.published_version === null || primary.length === 0) {
    const publishing = flow.meta_status === "PUBLISHING";
    const why = target.is_sandbox ? ", where your sandbox testers joined" : ", your project's own number";
    return {
      headline: `${publishing ? "Publishing on" : "Publish puts it on"} ${channelLabel(target)}${why}.`,
      account: target.business_account_id,
      notes: [],
    };
  }
  const also = channels.senders
    .filter((channel) => !channel.primary)
    .map((channel) => `Also published on ${channelLabel(channel)}, version ${channels.published_version}.`);
  const moving = primary.some((channel) => channel.channel_id === target.channel_id)
    ? []
    : [`Your next publish goes to ${channelLabel(target)}, the project's channel now.`];
  return {
    headline: `Published on ${primary.map(channelLabel).join(" and ")}.`,
    account: primary[0]!.business_account_id,
    notes: [...also, ...moving],
  };
}

/**
 * Sending to a sandbox tester: the channels that can send the published version, and the shared
 * sandbox (where testers join) even when it cannot yet; `needsPublish` says that version must be
 * published there first.
 */
export interface SendFrom {
  channel: FlowChannel;
  needsPublish: boolean;
}

const SANDBOX: FlowChannel = {
  channel_id: SANDBOX_CHANNEL_ID,
  display_name: null,
  phone_number: null,
  is_sandbox: true,
  business_account_id: null,
  primary: false,
};

/** The shared sandbox first (where testers joined), then the project's own channels that can send it. */
export function sendFromOptions(channels: FlowChannels): SendFrom[] {
  const senders = channels.senders.map((channel) => ({ channel, needsPublish: false }));
  const sandbox = senders.find(({ channel }) => channel.is_sandbox) ?? { channel: SANDBOX, needsPublish: true };
  return [sandbox, ...senders.filter(({ channel }) => !channel.is_sandbox)];
}

/**
 * A refused send in the dialog's words: the 24-hour window names the channel and the tester and says
 * how to open it again; anything else is the API's own message (which already says what to do).
 */
export function sendRefusalText(error: { code?: string; message: string }, from: FlowChannel, tester: string): string {
  if (error.code !== "outside_messaging_window") return error.message;
  if (from.is_sandbox) {
    return `${tester} has not written on the shared sandbox in the last 24 hours. Send any message as them from the Sandbox phone, then send the flow again.`;
  }
  const name = channelName(from);
  return (
    `${tester} has not written to ${channelLabel(from)} in the last 24 hours, so ${name} cannot send them a flow. ` +
    `Send it from the shared sandbox, where testers joined, or write to ${name} as them from the Sandbox phone first.`
  );
}
