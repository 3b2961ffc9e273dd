import { and, eq } from "drizzle-orm";
import { channels, flowVersionCopies } from "@/lib/db/schema";
import type { Ctx, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { SvcError } from "@/lib/errors";
import type { Db } from "@/lib/ports/db/types";
import { channelWords } from "./channel";
import { providerAccountOf } from "@/lib/domain/channels/provider-account";
import type { FlowVersionRow } from "./dispatch";
import { ensureFlowKeys } from "./exchange/keys";
import { flowEndpointUri } from "./endpoint-uri";
import { providerCall } from "./provider-call";
import { recordAudit } from "@/lib/domain/audit/record";
import type { FlowRow } from "./serialize";

/**
 * A published version published again under another business account (flow_version_copies): a
 * channel sends a flow only from its own business account's provider flow, and a project that owns a
 * number publishes there while its sandbox testers are reached through the shared sandbox. The flow's
 * own publication (meta_flow_id, meta_waba_id, its status webhooks) stays the primary one; a copy only
 * makes the same version sendable through the copy's account (docs/api-decisions.md "Flows").
 */
export type FlowVersionCopyRow = typeof flowVersionCopies.$inferSelect;

/** Callers load the flow through its project first (getFlowRow), so a flow id here is already the project's. */
export async function copiesOf(db: Db, flowId: string, version: number): Promise<FlowVersionCopyRow[]> {
  return db
    .select()
    .from(flowVersionCopies)
    .where(and(eq(flowVersionCopies.flowId, flowId), eq(flowVersionCopies.version, version)));
}

export async function copyOf(db: Db, flowId: string, version: number, businessAccountId: string): Promise<FlowVersionCopyRow | null> {
  const [row] = await db
    .select()
    .from(flowVersionCopies)
    .where(and(eq(flowVersionCopies.flowId, flowId), eq(flowVersionCopies.version, version), eq(flowVersionCopies.metaWabaId, businessAccountId)));
  return row ?? null;
}

/**
 * Publishes the version's Flow JSON under the channel's business account, inside the request like
 * refresh and deprecate (create, then publish; a refusal is 502 provider_error), and records it. Each
 * attempt names its provider flow apart, since names are unique per business account and an attempt
 * whose publish failed leaves its created flow behind (a DRAFT nobody sends). Two publishes at once
 * both reach the provider; the first row stored is the one sends use.
 */
export async function publishCopy(ctx: Ctx, flow: FlowRow, version: FlowVersionRow, channel: ChannelRow): Promise<FlowVersionCopyRow> {
  const businessAccountId = channel.businessAccountId ?? "";
  const existing = await copyOf(ctx.db, flow.id, version.version, businessAccountId);
  if (existing) return existing;
  const account = providerAccountOf(channel, ctx.settings);
  const endpointUri = flow.runtimeMode === "DATA_EXCHANGE" ? await endpointFor(ctx, channel, flow) : undefined;
  const created = await providerCall(() =>
    ctx.ports.provider.flows.createFlow(account, {
      name: `${flow.name} (${flow.id} v${version.version} on ${channel.id} ${ctx.now.getTime().toString(36)})`,
      flowJson: version.flowJson,
      ...(endpointUri ? { endpointUri } : {}),
    }),
  );
  if (created.validationErrors.length > 0) {
    const first = created.validationErrors[0]!.message;
    throw new SvcError(
      "provider_error",
      `The provider refused version ${version.version} of this flow on ${channelWords(channel)}: ${first} Fix the flow and publish it again, then retry.`,
      { retryable: false, validation_errors: created.validationErrors },
    );
  }
  await providerCall(() => ctx.ports.provider.flows.publishFlow(account, created.id));
  await ctx.db.transaction(async (tx) => {
    const stored = await tx
      .insert(flowVersionCopies)
      .values({ flowId: flow.id, version: version.version, metaWabaId: businessAccountId, metaFlowId: created.id, channelId: channel.id, publishedAt: ctx.now })
      .onConflictDoNothing()
      .returning({ flowId: flowVersionCopies.flowId });
    // The copy that is stored is the one that went live: a concurrent publish that lost records nothing.
    if (stored.length) {
      await recordAudit(
        { ...ctx, db: tx },
        {
          action: "flow.published",
          target: { type: "flow", id: flow.id },
          details: { name: flow.name, revision: flow.revision, channel_id: channel.id, copy: true },
        },
      );
    }
  });
  return (await copyOf(ctx.db, flow.id, version.version, businessAccountId))!;
}

async function endpointFor(ctx: Ctx, channel: ChannelRow, flow: FlowRow): Promise<string> {
  await providerCall(() => ensureFlowKeys(ctx, channel));
  return flowEndpointUri(ctx.settings.publicUrl, flow.id);
}

/**
 * Deprecates a version's copies at the provider (after a re-publish, or with the flow), best effort
 * as the primary's deprecation after a re-publish is: what is already out keeps its own version.
 */
export async function deprecateCopies(ctx: SystemCtx, flowId: string, version: number): Promise<void> {
  const rows = await ctx.db
    .select({ copy: flowVersionCopies, channel: channels })
    .from(flowVersionCopies)
    .innerJoin(channels, eq(channels.id, flowVersionCopies.channelId))
    .where(and(eq(flowVersionCopies.flowId, flowId), eq(flowVersionCopies.version, version)));
  for (const { copy, channel } of rows) {
    await ctx.ports.provider.flows.deprecateFlow(providerAccountOf(channel, ctx.settings), copy.metaFlowId).catch((error: unknown) => {
      console.warn(
        `[flows] could not deprecate provider flow ${copy.metaFlowId} (a copy of ${flowId} v${version}):`,
        error instanceof Error ? error.message : error,
      );
    });
  }
}
