import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "@/lib/db/schema";
import { apiRoutes } from "@/lib/api/registry";
import { declaredActions, type AuditDeclaration } from "@/lib/api/audit-declaration";
import { accountRoutes, dashboardOnlyRoutes } from "@/lib/dashboard/routes";
import { cliRoutes } from "@/lib/cli-api/routes";
import { ID_PREFIXES } from "@/lib/ids";
import { AUDIT_ACTION_TARGETS, AUDIT_ACTIONS, AUDIT_TARGET_KINDS } from "@/lib/shared/audit-actions";
import { startHarness, type Harness } from "../messages/support";
import { newStage, type AuditScenario } from "./scenarios/support";
import { accessScenarios } from "./scenarios/access";
import { agentScenarios, projectScenarios } from "./scenarios/project";
import { channelScenarios } from "./scenarios/channels";
import { functionScenarios } from "./scenarios/functions";
import { deliveryScenarios } from "./scenarios/delivery";
import { inboxScenarios } from "./scenarios/inbox";

/**
 * Every write is audited or exempt with a reason (docs/api-decisions.md "Audit log"). Each operation of
 * every routing table (/api/v1, the dashboard's own, its account calls, /api/cli) that is not a GET
 * declares `audit` (lib/api/audit-declaration.ts); this file holds those declarations to account: each
 * declared action is proven by a scenario that calls the operation on a real database and finds the
 * entry, with its target's type and id kind, and none of the secrets the call carried.
 */

interface Operation {
  table: string;
  method: string;
  path: string;
  operationId: string;
  audit: AuditDeclaration | null;
}

const tables = { "/api/v1": apiRoutes, "/api/dashboard/projects/{id}": dashboardOnlyRoutes, "/api/dashboard": accountRoutes, "/api/cli": cliRoutes };
const operations: Operation[] = Object.entries(tables).flatMap(([table, routes]) =>
  routes.map((route) => ({ table, method: route.method, path: route.path, operationId: route.operationId, audit: route.audit })),
);
const writes = operations.filter((op) => op.method !== "GET");
const byOperationId = new Map(operations.map((op) => [op.operationId, op]));

const scenarios: AuditScenario[] = [
  ...accessScenarios,
  ...projectScenarios,
  ...agentScenarios,
  ...channelScenarios,
  ...functionScenarios,
  ...deliveryScenarios,
  ...inboxScenarios,
];

describe("every write declares what it records", () => {
  it.each(writes.map((op) => [`${op.method} ${op.table}${op.path}`, op] as const))("%s: audited actions or an exemption with a reason", (_, op) => {
    expect(op.audit, "no audit declaration").not.toBeNull();
    if (op.audit && "exempt" in op.audit) expect(op.audit.exempt.length).toBeGreaterThan(20);
    else expect(declaredActions(op.audit).length).toBeGreaterThan(0);
  });

  it("no GET declares one, and every action of the union is declared by some write", () => {
    expect(operations.filter((op) => op.method === "GET" && op.audit !== null)).toEqual([]);
    const declared = new Set(writes.flatMap((op) => declaredActions(op.audit)));
    expect(AUDIT_ACTIONS.filter((action) => !declared.has(action))).toEqual([]);
  });

  it("each declared action of each write has a scenario below, and each scenario calls a write that declares what it proves", () => {
    const proven = new Set(scenarios.flatMap((s) => s.proves.map((action) => `${s.operationId} ${action}`)));
    const unproven = writes.flatMap((op) => declaredActions(op.audit).map((action) => `${op.operationId} ${action}`)).filter((pair) => !proven.has(pair));
    expect(unproven).toEqual([]);
    for (const s of scenarios) {
      const op = byOperationId.get(s.operationId);
      expect(op, s.operationId).toBeDefined();
      for (const action of s.proves) expect(declaredActions(op!.audit), `${s.operationId} ${action}`).toContain(action);
    }
  });
});

describe("each declared action is written by a real call", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { sandboxParticipantCap: 100 } });
  });
  afterAll(() => h?.close());

  it.each(scenarios.map((s) => [`${s.operationId} → ${s.proves.join(", ")}`, s] as const))("%s", async (_, s) => {
    const stage = await newStage(h);
    const given = s.setup ? await s.setup(stage) : undefined;
    const entries = () => h.app.db.select().from(auditEvents).where(eq(auditEvents.projectId, stage.seeded.projectId));
    const before = new Set((await entries()).map((row) => row.id));
    const result = await s.act(stage, given);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const written = (await entries()).filter((row) => !before.has(row.id));

    // Nothing it does not declare (the wrapper checks this too, where the route has a ctx), and all it claims.
    const declared = declaredActions(byOperationId.get(s.operationId)!.audit);
    for (const row of written) expect(declared, `${s.operationId} wrote ${row.action}`).toContain(row.action);
    expect(new Set(written.map((row) => row.action))).toEqual(new Set(s.proves));

    for (const row of written) {
      const type = AUDIT_ACTION_TARGETS[row.action as keyof typeof AUDIT_ACTION_TARGETS];
      expect(row.targetType).toBe(type);
      expect(row.targetId).toMatch(new RegExp(`^${ID_PREFIXES[AUDIT_TARGET_KINDS[type]]}_`));
      expect(row.actorType).toBe(s.actor);
      expect(row.actorId).toEqual(s.actor === "user" ? stage.owner.userId : expect.stringMatching(/^key_/));
      const stored = JSON.stringify(row);
      for (const secret of s.secrets?.(given, result) ?? []) expect(stored, `${row.action} keeps a secret`).not.toContain(secret);
    }
  });
});
