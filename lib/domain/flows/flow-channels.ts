import { and, eq } from "drizzle-orm";
import { flowVersions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { SvcError } from "@/lib/errors";
import { assertCanPublish, channelsOfAccounts, publishChannelOf } from "./channel";
import { copiesOf, publishCopy } from "./copies";
import { getFlowRow } from "./crud";
import type { FlowVersionRow } from "./dispatch";
import type { FlowRow } from "./serialize";

/**
 * Where a flow is published, by channel (the dashboard's flow page and its send dialog): the channel
 * the next publish goes to, and the channels that can send the live version, those of the business
 * account it was published under first, then those of any account it was published on since
 * (copies.ts). A channel of another account is made able to send it by publishing the live version
 * there: publishFlowOnChannel.
 */

interface FlowChannelWire {
  channel_id: string;
  display_name: string | null;
  phone_number: string | null;
  is_sandbox: boolean;
  business_account_id: string | null;
  /** Under the business account the flow itself is published under (its meta_waba_id), not a copy. */
  primary: boolean;
}

export interface FlowChannelsWire {
  object: "flow_channels";
  flow_id: string;
  /** The version customers get (null: never published, or deprecated). */
  published_version: number | null;
  /** Where POST /flows/{id}/publish puts the next version: the project's own number when connected, else the shared sandbox. */
  publish_target: FlowChannelWire;
  /** The connected channels that can send the published version now. */
  senders: FlowChannelWire[];
}

function wire(channel: ChannelRow, primaryAccount: string | null): FlowChannelWire {
  return {
    channel_id: channel.id,
    display_name: channel.displayName,
    phone_number: channel.phoneNumber,
    is_sandbox: channel.isSandbox,
    business_account_id: channel.businessAccountId,
    primary: primaryAccount !== null && channel.businessAccountId === primaryAccount,
  };
}

/** The version customers get, or null when the flow has none to send (never published, deprecated). */
async function liveVersionOf(ctx: Ctx, flow: FlowRow): Promise<FlowVersionRow | null> {
  if (flow.status !== "PUBLISHED" || flow.publishedVersion === null) return null;
  const [version] = await ctx.db
    .select()
    .from(flowVersions)
    .where(and(eq(flowVersions.flowId, flow.id), eq(flowVersions.version, flow.publishedVersion)));
  return version ?? null;
}

/** GET /flows/{id}/channels (dashboard). */
export async function flowChannels(ctx: Ctx, id: string): Promise<FlowChannelsWire> {
  const flow = await getFlowRow(ctx, id);
  const live = await liveVersionOf(ctx, flow);
  const accounts = live ? [live.metaWabaId, ...(await copiesOf(ctx.db, flow.id, live.version)).map((copy) => copy.metaWabaId)] : [];
  const senders = (await channelsOfAccounts(ctx, accounts)).map((channel) => wire(channel, live?.metaWabaId ?? null));
  // The primary account's channels first: where the flow "is published"; the copies' after.
  senders.sort((a, b) => Number(b.primary) - Number(a.primary));
  return {
    object: "flow_channels",
    flow_id: flow.id,
    published_version: live?.version ?? null,
    publish_target: wire(await publishChannelOf(ctx), live?.metaWabaId ?? null),
    senders,
  };
}

/**
 * POST /flows/{id}/channels {channel_id} (dashboard): the published version becomes sendable through
 * this channel. Under a business account that already has it, nothing changes; otherwise the version
 * (not unpublished edits) is published there now. Answers the flow's channels afterwards.
 */
export async function publishFlowOnChannel(ctx: Ctx, id: string, channelId: string): Promise<FlowChannelsWire> {
  const flow = await getFlowRow(ctx, id);
  const channel = await getChannelRowOrThrow(ctx, channelId);
  const live = await liveVersionOf(ctx, flow);
  if (!live) {
    const next = flow.status === "DEPRECATED" ? "A deprecated flow cannot be published again: create a new flow." : "Publish it first, then publish it there.";
    throw new SvcError("conflict", `Flow "${flow.name}" has no published version to put on another channel. ${next}`, {
      flow_id: flow.id,
      status: flow.status,
    });
  }
  assertCanPublish(channel);
  if (live.metaWabaId !== channel.businessAccountId) await publishCopy(ctx, flow, live, channel);
  return flowChannels(ctx, id);
}
