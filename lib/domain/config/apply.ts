import { automationPositions, createAutomations, deleteAutomations, moveAutomation, redefineAutomation } from "@/lib/domain/automations/write";
import type { Ctx } from "@/lib/domain/context";
import { createFlow, deleteFlow, updateFlow, type FlowWriteInput } from "@/lib/domain/flows/crud";
import { deprecateFlow } from "@/lib/domain/flows/publish";
import { updateProject } from "@/lib/domain/projects";
import { recordAudit } from "@/lib/domain/audit/record";
import { writeAgentPlans } from "./agent-apply";
import type { DesiredFlow } from "./desired";
import type { ConfigPlan, DiffItem } from "./diff";
import { documentOf } from "./export";
import { configInvalid } from "./issues";
import { loadConfigFacts, lockProjectConfig } from "./load";
import { checkConfig } from "./validate";

/**
 * POST /config/apply (docs/spec/decisions.md "Config-as-code"): ONE transaction. The document is
 * judged inside it, against what the project holds under the lock; any error issue → 422
 * config_invalid and nothing is written. Flows are written through the flows module's own verbs (its
 * analysis, its conflicts), automations and agents through theirs, in this transaction; apply never publishes.
 */
export async function applyConfig(ctx: Ctx, body: unknown) {
  return ctx.db.transaction(async (tx) => {
    const txCtx: Ctx = { ...ctx, db: tx };
    await lockProjectConfig(txCtx);
    const checked = await checkConfig(txCtx, body, await loadConfigFacts(txCtx));
    if (!checked.valid || !checked.diff) throw configInvalid(checked.issues);
    await writePlan(txCtx, checked.diff.plan);
    await recordAudit(txCtx, { action: "config.applied", target: { type: "project", id: ctx.project.id }, details: changeCounts(checked.diff.items) });
    const config = documentOf(await loadConfigFacts(txCtx), ctx.settings);
    return { object: "config_apply" as const, valid: true as const, issues: checked.issues, diff: checked.diff.items, config };
  });
}

/** What the apply changed, by kind of change: enough to tell a no-op apply from one that rewrote flows. */
function changeCounts(items: readonly DiffItem[]): { created: number; updated: number; deleted: number; unchanged: number } {
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const item of items) counts[item.action] += 1;
  return { created: counts.create, updated: counts.update, deleted: counts.delete, unchanged: counts.unchanged };
}

async function writePlan(ctx: Ctx, plan: ConfigPlan): Promise<void> {
  if (Object.keys(plan.project).length) await updateProject(ctx, ctx.project.id, plan.project);
  for (const row of plan.flowDeletes) await deleteFlow(ctx, row.id);
  for (const { row, desired, changes } of plan.flowUpdates) await updateFlow(ctx, row.id, flowUpdateOf(desired, changes));
  for (const desired of plan.flowCreates) await createFlow(ctx, flowCreateOf(desired));
  await writeAutomations(ctx, plan);
  await writeAgentPlans(ctx, plan.agents);
  // Last: deprecating calls the provider, so everything that can still fail on our side has run by now.
  for (const row of plan.flowDeprecations) await deprecateFlow(ctx, row.id);
}

function flowCreateOf(desired: DesiredFlow): FlowWriteInput {
  return {
    name: desired.name,
    description: desired.description,
    config_key: desired.key,
    locale: desired.locale,
    runtime_mode: desired.runtimeMode,
    data_exchange_url: desired.dataExchangeUrl,
    ...desired.source,
  };
}

/** Only what changed: an unchanged draft is not re-saved, so the flow's revision (and has_unpublished_changes) stays. */
function flowUpdateOf(desired: DesiredFlow, changes: readonly string[]): FlowWriteInput {
  const changed = new Set(changes);
  return {
    ...(changed.has("name") ? { name: desired.name } : {}),
    ...(changed.has("description") ? { description: desired.description } : {}),
    ...(changed.has("runtime_mode") ? { runtime_mode: desired.runtimeMode } : {}),
    ...(changed.has("data_exchange_url") ? { data_exchange_url: desired.dataExchangeUrl } : {}),
    ...(changed.has("draft") || changed.has("flow_json") ? desired.source : {}),
  };
}

/** Through the automations module's own writes: deletions first (a key is free again), then changes, moves, creates. */
async function writeAutomations(ctx: Ctx, plan: ConfigPlan): Promise<void> {
  await deleteAutomations(ctx, plan.automationDeletes);
  const positions = await automationPositions(ctx);
  for (const write of plan.automationWrites) {
    if (write.id === null) continue;
    if (write.changes.length) await redefineAutomation(ctx, write.id, write);
    else if (positions.get(write.id) !== write.position) await moveAutomation(ctx, write.id, write.position);
  }
  await createAutomations(
    ctx,
    plan.automationWrites.filter((write) => write.id === null),
  );
}
