import { and, eq } from "drizzle-orm";
import { channels, flowVersions, flows } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { ProviderError, type ProviderAccount } from "@/lib/ports/provider/types";
import type { JobRun } from "@/lib/jobs/define";
import { providerAccountOf } from "@/lib/domain/channels/provider-account";
import { deprecateCopies } from "./copies";
import { emitFlowStatus } from "./events";
import { ensureFlowKeys } from "./exchange/keys";
import { providerFinding } from "./provider-finding";
import { flowEndpointUri } from "./endpoint-uri";
import type { FlowRow } from "./serialize";

export const FLOW_PUBLISH_JOB = "flows.publish";

export interface FlowPublishJob {
  flowId: string;
  projectId: string;
  /** The revision snapshotted at POST /publish (flows.publishing_flow_json). */
  revision: number;
}

/**
 * The flows.publish job, as the provider does it: create the provider flow with the snapshot's JSON
 * (and endpoint), publish it, then cut version N+1 and deprecate the provider flow of the previous
 * version. Validation errors or a final refusal → PUBLISH_FAILED with the provider's errors (status
 * unchanged); throttling and outages retry.
 */
export async function runFlowPublish(ctx: SystemCtx, job: FlowPublishJob, run: JobRun): Promise<void> {
  const [row] = await ctx.db
    .select()
    .from(flows)
    .where(and(eq(flows.projectId, job.projectId), eq(flows.id, job.flowId)));
  if (!row || row.metaStatus !== "PUBLISHING" || !row.publishingFlowJson || !row.publishChannelId) return;
  const [channel] = await ctx.db.select().from(channels).where(eq(channels.id, row.publishChannelId));
  if (!channel) return fail(ctx, row, "The channel the flow was being published through is gone.", []);
  const account = providerAccountOf(channel, ctx.settings);
  try {
    const endpointUri = row.runtimeMode === "DATA_EXCHANGE" ? await prepareEndpoint(ctx, channel, row) : undefined;
    const created = await ctx.ports.provider.flows.createFlow(account, {
      name: providerFlowName(row, run),
      flowJson: row.publishingFlowJson,
      ...(endpointUri ? { endpointUri } : {}),
    });
    if (created.validationErrors.length > 0) {
      return fail(ctx, row, "The provider found errors in the Flow JSON.", created.validationErrors.map(providerFinding));
    }
    await ctx.ports.provider.flows.publishFlow(account, created.id);
    await succeed(ctx, row, job, created.id, account);
  } catch (error) {
    if (!ProviderError.is(error)) throw error;
    if (error.retryable && run.retryCount < run.retryLimit) throw error;
    const { failure } = error;
    await fail(ctx, row, failure.summary, [
      { code: failure.code ?? "PROVIDER_ERROR", subcode: failure.subcode, error_type: failure.type, message: failure.message, fbtrace_id: failure.fbtrace_id },
    ]);
  }
}

/**
 * Flow names are unique per business account at the provider. A retry after a create that timed out
 * may find its first attempt's flow there already, so each attempt names its own (the orphan stays a
 * DRAFT nobody sends).
 */
function providerFlowName(row: FlowRow, run: JobRun): string {
  const attempt = run.retryCount > 0 ? ` #${run.retryCount + 1}` : "";
  return `${row.name} (${row.id} v${(row.publishedVersion ?? 0) + 1}${attempt})`;
}

async function prepareEndpoint(ctx: SystemCtx, channel: typeof channels.$inferSelect, row: FlowRow): Promise<string> {
  await ensureFlowKeys(ctx, channel);
  return flowEndpointUri(ctx.settings.publicUrl, row.id);
}

async function succeed(ctx: SystemCtx, row: FlowRow, job: FlowPublishJob, metaFlowId: string, account: ProviderAccount): Promise<void> {
  const now = ctx.ports.clock.now();
  const version = (row.publishedVersion ?? 0) + 1;
  const previous = row.metaFlowId;
  await ctx.db.transaction(async (tx) => {
    await tx.insert(flowVersions).values({
      flowId: row.id,
      version,
      flowJson: row.publishingFlowJson!,
      fieldSchema: row.publishingFieldSchema ?? [],
      metaFlowId,
      metaWabaId: account.businessAccountId,
      publishedAt: now,
    });
    await tx
      .update(flows)
      .set({
        status: "PUBLISHED",
        metaStatus: "PUBLISHED",
        metaStatusReason: null,
        publishedVersion: version,
        publishedRevision: job.revision,
        metaFlowId,
        metaWabaId: account.businessAccountId,
        publishingFlowJson: null,
        publishingFieldSchema: null,
        lastSyncedAt: now,
        updatedAt: now,
      })
      .where(eq(flows.id, row.id));
    const payload = {
      flow_id: row.id,
      meta_flow_id: metaFlowId,
      config_key: row.configKey,
      locale: row.locale,
      old_status: row.publishedVersion === null ? "DRAFT" : "PUBLISHED",
      new_status: "PUBLISHED",
      reason: null,
      occurred_at: now.toISOString(),
    };
    await emitFlowStatus({ ...ctx, db: tx }, row.projectId, payload, now);
  });
  // The previous version's provider flow stops opening for new sends; dispatches already out keep
  // their own version. Best effort: the new version is live whatever the provider says here.
  if (previous && previous !== metaFlowId) {
    await ctx.ports.provider.flows.deprecateFlow(account, previous).catch((error: unknown) => {
      console.warn(`[flows] could not deprecate provider flow ${previous} of ${row.id}:`, error instanceof Error ? error.message : error);
    });
  }
  if (row.publishedVersion !== null) await deprecateCopies(ctx, row.id, row.publishedVersion);
}

async function fail(ctx: SystemCtx, row: FlowRow, reason: string, errors: Record<string, unknown>[]): Promise<void> {
  const now = ctx.ports.clock.now();
  await ctx.db
    .update(flows)
    .set({
      metaStatus: "PUBLISH_FAILED",
      metaStatusReason: reason,
      validationErrors: errors,
      publishingFlowJson: null,
      publishingFieldSchema: null,
      lastSyncedAt: now,
      updatedAt: now,
    })
    .where(eq(flows.id, row.id));
}
