import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { runScopeQuery } from "@/lib/domain/automations/runs";
import { executeRows } from "@/lib/ports/db/bulk";
import { createTestApp, type TestApp } from "../support/app";

/**
 * Every run of a reply reads its scope in one statement (lib/domain/automations/runs.ts). Its contact
 * is joined on contacts' whole primary key (project_id, id): joined on the id alone, Postgres can only
 * walk the whole index or the whole table, so the read grew with the number of contacts (181 buffers
 * per call in the bench's keyword phase at 6,000 contacts, 2026-11-30). With sequential scans off the
 * plan must reach the contact through an index condition on both columns.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe("the automation run's scope", () => {
  it("reads its contact by the contact's whole key", async () => {
    const plan = await app.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return executeRows<Record<string, unknown>>(tx, sql`explain (format json) ${runScopeQuery(tx, "aur_nothing")}`);
    });
    const [first] = plan;
    const document = Object.values(first!)[0];
    const root = (typeof document === "string" ? JSON.parse(document) : document) as [{ Plan: PlanNode }];
    const contactReads = nodesOf(root[0].Plan).filter((node) => node["Relation Name"] === "contacts");
    expect(contactReads).toHaveLength(1);
    expect(contactReads[0]!["Node Type"]).toMatch(/Index/);
    expect(contactReads[0]!["Index Cond"]).toMatch(/project_id/);
    expect(contactReads[0]!["Index Cond"]).toMatch(/\bid\b/);
  });
});
