import { and, eq } from "drizzle-orm";
import { flowDispatches, flowVersions } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { Db } from "@/lib/ports/db/types";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { randomBase62 } from "@/lib/crypto/secrets";
import { channelWords, channelsOfAccounts } from "./channel";
import { copyOf } from "./copies";
import type { FlowRow } from "./serialize";

/**
 * What every way of sending a Flow shares (POST /flows/send, and a template's FLOW button sent by
 * POST /messages): the token, the version that may be sent, and the dispatch row written in the
 * message's transaction, which a completion (completion.ts) is matched against.
 */
const DISPATCH_TTL_MS = 30 * 24 * 3600_000;

export type FlowVersionRow = typeof flowVersions.$inferSelect;

/** `svcft_` + 32 base62 characters: unguessable, since the token is what the completion and the data endpoint trust. */
export function newFlowToken(): string {
  return `svcft_${randomBase62(32)}`;
}

/** Sendable: PUBLISHED, its live provider flow not blocked/throttled/deprecated, and owned by the channel's business account. */
export async function sendableVersion(ctx: Ctx, flow: FlowRow, channel: ChannelRow): Promise<FlowVersionRow> {
  const refuse = (reason: string, message: string) => new SvcError("flow_not_sendable", message, { reason, flow_id: flow.id, meta_status: flow.metaStatus });
  if (flow.status !== "PUBLISHED" || flow.publishedVersion === null) {
    const next =
      flow.status === "DEPRECATED"
        ? "a deprecated flow cannot be published again: create a new flow and send that one"
        : `publish it first (Publish on its page in the dashboard, or POST /flows/${flow.id}/publish)`;
    throw refuse(`FLOW_${flow.status}`, `Flow "${flow.name}" is ${flow.status}: ${next}.`);
  }
  // A re-publish in progress or failed leaves the live version as it was (docs/api-decisions.md "Flows").
  if (!["PUBLISHED", "PUBLISHING", "PUBLISH_FAILED"].includes(flow.metaStatus ?? "")) {
    throw refuse(
      `META_STATUS_${flow.metaStatus}`,
      `The provider reports flow "${flow.name}" as ${flow.metaStatus}; it cannot be sent until the provider reports it PUBLISHED again (Refresh status on its page shows the latest).`,
    );
  }
  const [version] = await ctx.db
    .select()
    .from(flowVersions)
    .where(and(eq(flowVersions.flowId, flow.id), eq(flowVersions.version, flow.publishedVersion)));
  if (!version) throw refuse("NO_PUBLISHED_VERSION", `Flow "${flow.name}" has no published version to send: publish it again.`);
  if (version.metaWabaId === channel.businessAccountId) return version;
  // The same version published under the channel's account too (copies.ts): sent as that account's provider flow.
  const copy = await copyOf(ctx.db, flow.id, version.version, channel.businessAccountId ?? "");
  if (copy) return { ...version, metaFlowId: copy.metaFlowId, metaWabaId: copy.metaWabaId };
  throw await notOnThisAccount(ctx, flow, version, channel);
}

/** WABA_MISMATCH, said with the channels' names and what to do; the ids travel beside the message. */
async function notOnThisAccount(ctx: Ctx, flow: FlowRow, version: FlowVersionRow, channel: ChannelRow): Promise<SvcError> {
  const holders = await channelsOfAccounts(ctx, [version.metaWabaId]);
  const holder = holders.find((row) => row.id === flow.publishChannelId) ?? holders[0];
  const here = channelWords(channel);
  const there = holder ? channelWords(holder) : `business account ${version.metaWabaId}, which none of your connected channels belongs to`;
  const otherWay = holder ? `, or send it through ${channelWords(holder, `channel_id ${holder.id}`)}` : "";
  return new SvcError(
    "flow_not_sendable",
    `Flow "${flow.name}" is published on ${there}; ${here} belongs to another business account, so it cannot send this flow yet. ` +
      `Publish it on ${here} first (sending from the flow's page in the dashboard offers to)${otherWay}.`,
    {
      reason: "WABA_MISMATCH",
      flow_id: flow.id,
      meta_status: flow.metaStatus,
      channel_id: channel.id,
      business_account_id: channel.businessAccountId,
      published_business_account_id: version.metaWabaId,
      published_channel_id: holder?.id ?? null,
    },
  );
}

export interface DispatchWrite {
  flow: FlowRow;
  version: FlowVersionRow;
  channel: ChannelRow;
  token: string;
  /** What sendMessage's `alongside` is handed: the message just written. */
  message: { messageId: string; conversationId: string; contactId: string; idempotencyKey: string };
  to: string | null;
}

export async function insertDispatch(tx: Db, ctx: Ctx, w: DispatchWrite) {
  const [row] = await tx
    .insert(flowDispatches)
    .values({
      id: newId("flowDispatch", ctx.now.getTime()),
      projectId: ctx.project.id,
      flowId: w.flow.id,
      flowVersion: w.version.version,
      flowToken: w.token,
      channelId: w.channel.id,
      conversationId: w.message.conversationId,
      contactId: w.message.contactId,
      to: w.to,
      messageId: w.message.messageId,
      locale: w.flow.locale,
      status: "SENT",
      idempotencyKey: w.message.idempotencyKey,
      expiresAt: new Date(ctx.now.getTime() + DISPATCH_TTL_MS),
      createdAt: ctx.now,
    })
    .returning();
  return row!;
}
