import { recordAudit } from "@/lib/domain/audit/record";
import { judgeAutomationChange, judgeAutomationCreate, type AutomationFacts } from "@/lib/domain/config/automation-checks";
import { automationChanges } from "@/lib/domain/config/compare";
import { automationInvalid, hasErrors } from "@/lib/domain/config/issues";
import { loadAutomationFacts, lockProjectConfig } from "@/lib/domain/config/load";
import type { Ctx } from "@/lib/domain/context";
import { notFound } from "@/lib/errors";
import { getAutomationRow } from "./crud";
import type { AutomationRow } from "./runs";
import { serializeAutomation } from "./serialize";
import { deleteAutomations, insertAutomation, redefineAutomation, shiftAutomations } from "./write";

/**
 * The automations API's writes (docs/api-decisions.md "Automations"): POST, PATCH and DELETE
 * /automations. Each is judged by config validate's own checks (lib/domain/config/automation-checks.ts:
 * 422 config_invalid, nothing written), writes through this module's writes as config apply does, keeps
 * config order dense (0..n-1) and is audited, in one transaction under the lock config apply takes, so
 * an apply and an API write of one project run one after the other. Every automation carries its key,
 * so GET /config exports it and an apply that no longer lists it deletes it.
 */

export async function createAutomation(ctx: Ctx, body: Record<string, unknown>) {
  return underConfigLock(ctx, async (tx, facts) => {
    const judged = judgeAutomationCreate(body, facts);
    if (!judged.entry || hasErrors(judged.issues)) throw automationInvalid(judged.issues);
    const order = facts.automations.map((row) => row.id);
    const at = Math.min(judged.position ?? order.length, order.length);
    const row = await insertAutomation(tx, { entry: judged.entry, position: at });
    order.splice(at, 0, row.id);
    await shiftAutomations(tx, shiftsOf(facts.automations, order));
    await recordAudit(tx, {
      action: "automation.created",
      target: { type: "automation", id: row.id },
      details: { key: row.key, name: row.name, position: at },
    });
    return serializeAutomation(row);
  });
}

/** PATCH: what changed is written (updated_at moves); nothing changed → the automation as it is, no audit entry. */
export async function changeAutomation(ctx: Ctx, id: string, body: Record<string, unknown>) {
  return underConfigLock(ctx, async (tx, facts) => {
    const row = rowOf(facts, id);
    const judged = judgeAutomationChange(row, body, facts);
    if (!judged.entry || hasErrors(judged.issues)) throw automationInvalid(judged.issues);
    const from = facts.automations.indexOf(row);
    const order = facts.automations.map((r) => r.id).filter((other) => other !== id);
    const at = judged.position === null ? from : Math.min(judged.position, order.length);
    order.splice(at, 0, id);
    // The diff's own field names (config/compare.ts), so the audit entry reads like the Config page's diff.
    const changes = [...automationChanges(row, judged.entry), ...(at !== from ? ["order"] : [])];
    if (!changes.length) return serializeAutomation(row);
    await redefineAutomation(tx, id, { entry: judged.entry, position: at });
    await shiftAutomations(
      tx,
      shiftsOf(
        facts.automations.filter((r) => r.id !== id),
        order,
      ),
    );
    await recordAudit(tx, { action: "automation.updated", target: { type: "automation", id }, details: { key: row.key, changes } });
    return serializeAutomation(await getAutomationRow(tx, id));
  });
}

/** DELETE: the automation and its runs (foreign key cascade); the ones after it move up. */
export async function deleteAutomation(ctx: Ctx, id: string) {
  return underConfigLock(ctx, async (tx, facts) => {
    const row = rowOf(facts, id);
    await deleteAutomations(tx, [id]);
    const rest = facts.automations.filter((r) => r.id !== id);
    await shiftAutomations(
      tx,
      shiftsOf(
        rest,
        rest.map((r) => r.id),
      ),
    );
    await recordAudit(tx, { action: "automation.deleted", target: { type: "automation", id }, details: { key: row.key, name: row.name } });
    return { object: "automation" as const, id, deleted: true as const };
  });
}

async function underConfigLock<T>(ctx: Ctx, write: (tx: Ctx, facts: AutomationFacts) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (db) => {
    const tx: Ctx = { ...ctx, db };
    await lockProjectConfig(tx);
    return write(tx, await loadAutomationFacts(tx));
  });
}

function rowOf(facts: AutomationFacts, id: string): AutomationRow {
  const row = facts.automations.find((r) => r.id === id);
  if (!row) throw notFound("automation", id);
  return row;
}

/** The rows whose stored position is not their index in `order` (any gap an older write left closes too). */
function shiftsOf(rows: readonly AutomationRow[], order: readonly string[]): Array<{ id: string; position: number }> {
  const stored = new Map(rows.map((row) => [row.id, row.position]));
  return order.flatMap((id, position) => (stored.has(id) && stored.get(id) !== position ? [{ id, position }] : []));
}
