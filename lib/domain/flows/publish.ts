import { and, eq } from "drizzle-orm";
import { flows } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { getFlowRow } from "./crud";
import { assertCanPublish, publishChannelOf, publishedChannelOf } from "./channel";
import { providerAccountOf } from "@/lib/domain/channels/provider-account";
import { serializeFlow, type FlowRow } from "./serialize";
import { FLOW_PUBLISH_JOB, type FlowPublishJob } from "./publish-job";
import { emitFlowStatus } from "./events";
import { providerCall } from "./provider-call";
import { deprecateCopies } from "./copies";
import { providerFinding } from "./provider-finding";
import { recordAudit } from "@/lib/domain/audit/record";

type FlowWire = ReturnType<typeof serializeFlow>;

/** Our own findings block a publish: the provider would refuse the same JSON. */
function assertPublishable(row: FlowRow): void {
  const findings = (row.validationErrors ?? []).filter((item) => typeof item.path === "string");
  if (row.flowJson && findings.length === 0) return;
  throw new SvcError("flow_invalid", `Flow ${row.id} has ${findings.length || "unreadable"} validation error(s): fix them and save, then publish.`, {
    flow_id: row.id,
    validation_errors: findings,
  });
}

function assertNotDeprecated(row: FlowRow): void {
  if (row.status === "DEPRECATED") throw new SvcError("conflict", `Flow ${row.id} is DEPRECATED; create a new flow instead.`, { flow_id: row.id });
}

/**
 * POST /flows/{id}/publish: answers at once with meta_status PUBLISHING; the flows.publish job creates
 * the provider flow from a snapshot of this revision and publishes it. Publishing a revision that is
 * already published, or while a publish runs, changes nothing.
 */
export async function publishFlow(ctx: Ctx, id: string): Promise<FlowWire> {
  const row = await getFlowRow(ctx, id);
  assertNotDeprecated(row);
  if (row.metaStatus === "PUBLISHING") return serializeFlow(row);
  assertPublishable(row);
  if (row.publishedRevision === row.revision && row.metaStatus === "PUBLISHED") return serializeFlow(row);
  const channel = await publishChannelOf(ctx);
  assertCanPublish(channel);
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(flows)
      .set({
        metaStatus: "PUBLISHING",
        metaStatusReason: null,
        publishingFlowJson: row.flowJson,
        publishingFieldSchema: row.fieldSchema ?? [],
        publishChannelId: channel.id,
        updatedAt: ctx.now,
      })
      .where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, id), eq(flows.revision, row.revision)))
      .returning();
    // Saved again between the read and this write: publish what is there now.
    if (!updated) return publishFlow({ ...ctx, db: tx }, id);
    const job: FlowPublishJob = { flowId: id, projectId: ctx.project.id, revision: row.revision };
    await ctx.ports.queue.send(FLOW_PUBLISH_JOB, job, { tx });
    // Recorded when the publish is asked for: the provider's verdict arrives later as flow.status events.
    await recordAudit(
      { ...ctx, db: tx },
      { action: "flow.published", target: { type: "flow", id }, details: { name: updated.name, revision: row.revision, channel_id: channel.id, copy: false } },
    );
    return serializeFlow(updated);
  });
}

/** POST /flows/{id}/refresh: reads the provider's status and validation errors now. */
export async function refreshFlow(ctx: Ctx, id: string) {
  const row = await getFlowRow(ctx, id);
  if (!row.metaFlowId || !row.publishChannelId) {
    throw new SvcError("conflict", `Flow ${id} was never published, so the provider has nothing to report. Publish it first.`, { flow_id: id });
  }
  const account = await accountOf(ctx, row);
  const remote = await providerCall(() => ctx.ports.provider.flows.getFlow(account, row.metaFlowId!));
  const publishing = row.metaStatus === "PUBLISHING";
  const [updated] = await ctx.db
    .update(flows)
    .set({
      ...(publishing ? {} : { metaStatus: remote.status, ...(remote.status === "DEPRECATED" ? { status: "DEPRECATED" as const } : {}) }),
      ...(remote.validationErrors.length ? { validationErrors: remote.validationErrors.map(providerFinding) } : {}),
      lastSyncedAt: ctx.now,
      updatedAt: ctx.now,
    })
    .where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, id)))
    .returning();
  if (!publishing && remote.status !== row.metaStatus) await emitStatusChange(ctx, row, remote.status, null);
  return serializeFlow(updated!);
}

/** POST /flows/{id}/deprecate: only a PUBLISHED flow; the provider flow is deprecated first, then ours (not sendable any more). */
export async function deprecateFlow(ctx: Ctx, id: string) {
  const row = await getFlowRow(ctx, id);
  if (row.status !== "PUBLISHED" || row.metaStatus === "PUBLISHING") {
    const why = row.metaStatus === "PUBLISHING" ? "is being published" : `is ${row.status}`;
    throw new SvcError("conflict", `Only a PUBLISHED flow can be deprecated; flow ${id} ${why}.`, { flow_id: id, status: row.status });
  }
  const account = await accountOf(ctx, row);
  await providerCall(() => ctx.ports.provider.flows.deprecateFlow(account, row.metaFlowId!));
  const [updated] = await ctx.db
    .update(flows)
    .set({ status: "DEPRECATED", metaStatus: "DEPRECATED", metaStatusReason: null, lastSyncedAt: ctx.now, updatedAt: ctx.now })
    .where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, id)))
    .returning();
  await emitStatusChange(ctx, row, "DEPRECATED", null);
  // Its copies under other business accounts stop opening for new sends too.
  await deprecateCopies(ctx, row.id, row.publishedVersion!);
  return serializeFlow(updated!);
}

/** The flow lives under the account it was published to; that account's channel holds the token. */
async function accountOf(ctx: Ctx, row: FlowRow) {
  return providerAccountOf(await publishedChannelOf(ctx, row.publishChannelId!), ctx.settings);
}

export async function emitStatusChange(ctx: Pick<Ctx, "db" | "ports" | "now">, row: FlowRow, newStatus: string, reason: string | null): Promise<void> {
  await emitFlowStatus(
    ctx,
    row.projectId,
    {
      flow_id: row.id,
      meta_flow_id: row.metaFlowId,
      config_key: row.configKey,
      locale: row.locale,
      old_status: row.metaStatus,
      new_status: newStatus,
      reason,
      occurred_at: ctx.now.toISOString(),
    },
    ctx.now,
  );
}
