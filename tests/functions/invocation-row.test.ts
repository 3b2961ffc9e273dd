import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { functionInvocations, projects } from "@/lib/db/schema";
import type { ProjectRow } from "@/lib/domain/context";
import { recordRun } from "@/lib/domain/functions/run-record";
import { newId } from "@/lib/ids";
import { executeRows } from "@/lib/ports/db/bulk";
import { openDatabase } from "@/lib/ports/db/open";
import type { Db } from "@/lib/ports/db/types";
import type { SandboxRunOutcome } from "@/lib/ports/sandbox/types";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";

/**
 * The invocation row (lib/domain/functions/run-record.ts): one prepared statement whose commit does
 * not wait for the WAL flush (docs/api-decisions.md "Hosted functions": invocation log). That setting
 * is the statement's own transaction's: it never outlives it on the connection, and inside a
 * caller's transaction the plain statement runs, so the caller's other writes keep their durability.
 */
let app: TestApp;
let seeded: Seeded;
let fn: { id: string; versionId: string };
let project: ProjectRow;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  fn = await deployed(app, seeded.key, "row-echo", "export default async (event) => event.arguments.value ?? null;");
  [project] = (await app.db.select().from(projects).where(eq(projects.id, seeded.projectId))) as [ProjectRow];
});
afterAll(async () => {
  await app.close();
});

const outcome: SandboxRunOutcome = { status: "ok", result: { ok: true }, error: null, logs: [], cpu_ms: 1.4, sub_requests: 0, duration_ms: 2.6 };

async function record(db: Db, event: unknown = { n: 1 }) {
  const ctx = { ...app.systemCtx(), db, project };
  const invocationId = newId("functionInvocation");
  const record = { invocationId, functionId: fn.id, versionId: fn.versionId, eventType: "invoke" as const, event, startedAt: app.clock.now() };
  await recordRun(ctx, record, outcome);
  return invocationId;
}

const synchronousCommit = async (db: Db) =>
  (await executeRows<{ setting: string }>(db, sql`select current_setting('synchronous_commit') as setting`))[0]?.setting;

describe("the invocation row", () => {
  it("is what GET /invocations lists as soon as invoke answers: nulls stored as nulls", async () => {
    const answered = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: { arguments: {} } });
    expect(answered.body).toMatchObject({ status: "ok", result: null });
    const listed = await app.call("GET", `/functions/${fn.id}/invocations`, { key: seeded.key });
    expect(listed.body.data[0]).toMatchObject({
      id: answered.body.invocation_id,
      event_type: "invoke",
      status: "ok",
      result: null,
      error: null,
      logs: [],
      version_id: fn.versionId,
      input: { type: "invoke", arguments: {}, contact: null },
    });
    const [row] = await app.db
      .select({ isNull: sql<boolean>`${functionInvocations.result} is null` })
      .from(functionInvocations)
      .where(eq(functionInvocations.id, answered.body.invocation_id));
    expect(row?.isNull).toBe(true);
  });

  it("leaves the connection's synchronous_commit as it was", async () => {
    // One connection, so the statement and the check share it (PGlite has only one anyway).
    const single = app.databaseUrl ? await openDatabase({ databaseUrl: app.databaseUrl, migrate: false, max: 1 }) : null;
    const db = single?.db ?? app.db;
    try {
      expect(await synchronousCommit(db)).toBe("on");
      const id = await record(db);
      expect(await synchronousCommit(db)).toBe("on");
      const [row] = await app.db.select().from(functionInvocations).where(eq(functionInvocations.id, id));
      expect(row).toMatchObject({ status: "ok", result: { ok: true }, input: { n: 1 }, cpuMs: 1, durationMs: 3 });
    } finally {
      await single?.close();
    }
  });

  it("inside a caller's transaction, does not make that transaction's commit asynchronous", async () => {
    const id = await app.db.transaction(async (tx) => {
      const written = await record(tx);
      expect(await synchronousCommit(tx)).toBe("on");
      return written;
    });
    const [row] = await app.db.select({ id: functionInvocations.id }).from(functionInvocations).where(eq(functionInvocations.id, id));
    expect(row?.id).toBe(id);
  });
});
