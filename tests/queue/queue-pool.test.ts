import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { createJobQueue, type JobQueue } from "@/lib/ports/queue";
import { executeRows } from "@/lib/ports/db/bulk";
import { createTestApp, type TestApp } from "../support/app";

/**
 * On Postgres pg-boss's statements run on the queue's own pool (lib/ports/db/open.ts QUEUE_POOL), whose
 * sessions plan each prepared statement once (generic plans): Postgres planned the fetch and the
 * completion again on every call. The application's pool keeps Postgres's own choice.
 */
let app: TestApp;
let db: DatabaseHandle | null = null;
let queue: JobQueue<Record<string, object>> | null = null;
let handled = 0;
let unsafe: ReturnType<typeof vi.spyOn> | null = null;

beforeAll(async () => {
  app = await createTestApp();
  if (app.kind !== "postgres") return;
  db = await openDatabase({ databaseUrl: app.databaseUrl!, migrate: false, max: 2 });
  unsafe = vi.spyOn(db.queueClient!, "unsafe");
  queue = await createJobQueue(db);
  queue.define("queue.pool-probe", {}, async () => void (handled += 1));
  await queue.prepare();
});
afterAll(async () => {
  await queue?.stop();
  await db?.close();
  await app?.close();
});

describe("the queue's pool on Postgres", () => {
  it("plans generically, and the application's pool does not", async ({ skip }) => {
    if (!db) return skip("PGlite has one session: there is no pool to give the queue");
    const [queueSession] =
      (await db.queueClient!`select current_setting('plan_cache_mode') as mode, current_setting('application_name') as name`) as unknown as {
        mode: string;
        name: string;
      }[];
    expect(queueSession).toEqual({ mode: "force_generic_plan", name: "svc-queue" });
    const [appSession] = await executeRows<{ mode: string }>(db.db, sql`select current_setting('plan_cache_mode') as mode`);
    expect(appSession!.mode).toBe("auto");
  });

  it("runs pg-boss's fetch and completion there", async ({ skip }) => {
    if (!db || !queue) return skip("PGlite has one session");
    await queue.send("queue.pool-probe", { n: 1 });
    await queue.drain();
    expect(handled).toBe(1);
    const sessions = await executeRows<{ query: string }>(
      db.db,
      sql`select query from pg_stat_activity where datname = current_database() and application_name = 'svc-queue' and query ilike '%pgboss%'`,
    );
    expect(sessions.length).toBeGreaterThan(0);
  });

  it("prepares the fetch, whose text has no parameters (pg-boss writes the queue and LIMIT into it)", async ({ skip }) => {
    if (!db || !queue || !unsafe) return skip("PGlite has one session");
    const fetches = (unsafe.mock.calls as unknown[][]).filter(([text]) => /next AS \(/.test(String(text)) && String(text).includes("queue.pool-probe"));
    expect(fetches.length).toBeGreaterThan(0);
    for (const [, params, options] of fetches) {
      expect(params).toEqual([]);
      expect(options).toEqual({ prepare: true, simple: false });
    }
  });
});
