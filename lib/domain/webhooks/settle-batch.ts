import { sql } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { builtOnceSql } from "@/lib/ports/db/prepared";
import { isTransaction } from "@/lib/ports/db/transaction";
import type { Db } from "@/lib/ports/db/types";

/**
 * The final settle of an attempt (success, 410, or the last one): its attempt row and the delivery's
 * outcome, written only while that attempt is still the current one (attempt.ts settleFinal).
 */
export interface FinalSettle {
  now: string;
  deliveryId: string;
  projectId: string;
  attemptId: string;
  attemptNumber: number;
  url: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  status: "succeeded" | "failed";
  lastError: string | null;
}

/** Settles one attempt in its own statement; true when it moved the delivery. */
export type SettleOne = (db: Db, settle: FinalSettle) => Promise<boolean>;

/**
 * Final settles of attempts that finish together, written as one statement (a group commit).
 *
 * On this kind of machine a statement's cost is mostly its round trip: the worker's write wakes a
 * backend that runs the statement on the writer's core before the writer goes on (`writeBuffer`, a
 * third of the worker's profile in the keyword phase at 100/s, README "Performance"). A delivery's
 * settle is the one statement every delivery makes after its POST, and deliveries finish in bursts (a
 * fetch's jobs, a status run's events). So a settle waits for the end of the current turn of the event
 * loop, and every settle asked for by then goes in one statement; while MAX_IN_FLIGHT such statements
 * run, the next ones gather behind them. Alone (a quiet worker), a settle waits one turn, no longer.
 *
 * Each caller still gets its own answer. The UPDATE joins its rows by delivery id, and a join that
 * matches one row twice updates it once, so a delivery never appears twice in one statement: the
 * second attempt of the same delivery (a zombie beside its retry) waits for the next one. When the
 * statement fails (one row refused, a deadlock), each of its settles is written on its own, so only
 * the settle at fault sees the error.
 */
const MAX_IN_FLIGHT = 2;
const MAX_BATCH = 200;

interface Waiting {
  settle: FinalSettle;
  one: SettleOne;
  resolve(moved: boolean): void;
  reject(error: unknown): void;
}

class SettleBatcher {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly db: Db) {}

  settle(settle: FinalSettle, one: SettleOne): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ settle, one, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_IN_FLIGHT || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.inFlight >= MAX_IN_FLIGHT || this.waiting.length === 0) return;
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    const deliveries = new Set<string>();
    for (const item of this.waiting) {
      if (batch.length < MAX_BATCH && !deliveries.has(item.settle.deliveryId)) {
        deliveries.add(item.settle.deliveryId);
        batch.push(item);
      } else later.push(item);
    }
    this.waiting = later;
    this.inFlight++;
    void this.write(batch).finally(() => {
      this.inFlight--;
      this.schedule();
    });
    this.schedule();
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (batch.length > 1) {
      let moved: Set<string> | null = null;
      try {
        moved = new Set((await settleMany(this.db, batch)).map((row) => row.id));
      } catch {
        // Written one by one below: only the settle at fault fails, with its own error.
      }
      if (moved) {
        for (const item of batch) item.resolve(moved.has(item.settle.deliveryId));
        return;
      }
    }
    await Promise.all(batch.map((item) => item.one(this.db, item.settle).then(item.resolve, item.reject)));
  }
}

const batchers = new WeakMap<Db, SettleBatcher>();

/**
 * `one(db, settle)`, or, on a database handle that is not a transaction, the same settle written with
 * the others that finish in the same turn of the event loop (see SettleBatcher).
 */
export function settleTogether(db: Db, settle: FinalSettle, one: SettleOne): Promise<boolean> {
  if (isTransaction(db)) return one(db, settle);
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new SettleBatcher(db)));
  return batcher.settle(settle, one);
}

/** The batch's rows as one jsonb parameter (jsonb_to_recordset below): one statement text for any count. */
function rowsOf(batch: Waiting[]): string {
  return JSON.stringify(
    batch.map(({ settle: s }) => ({
      delivery_id: s.deliveryId,
      project_id: s.projectId,
      attempt_id: s.attemptId,
      attempt_number: s.attemptNumber,
      url: s.url,
      duration_ms: s.durationMs,
      status_code: s.statusCode,
      error: s.error,
      excerpt: s.excerpt,
      status: s.status,
      last_error: s.lastError,
      at: s.now,
    })),
  );
}

const settleManyStatement = builtOnceSql<{ id: string }>("webhook_attempt_settle_final_many", () => {
  const d = webhookDeliveries;
  const a = webhookAttempts;
  const given = sql`jsonb_to_recordset(${sql.placeholder("rows")}::jsonb) as "v"("delivery_id" text, "project_id" text, "attempt_id" text, "attempt_number" int, "url" text, "duration_ms" int, "status_code" int, "error" text, "excerpt" text, "status" text, "last_error" text, "at" timestamptz)`;
  // Every row's attempt is recorded, moved or not, as the one-row statement records it.
  return sql`with "v" as (select * from ${given}),
    "moved" as (
      update ${d} set ${sql.identifier(d.attemptCount.name)} = "v"."attempt_number", ${sql.identifier(d.lastStatusCode.name)} = "v"."status_code",
        ${sql.identifier(d.lastError.name)} = "v"."last_error", ${sql.identifier(d.status.name)} = "v"."status", ${sql.identifier(d.nextAttemptAt.name)} = null,
        ${sql.identifier(d.leaseExpiresAt.name)} = null, ${sql.identifier(d.completedAt.name)} = "v"."at", ${sql.identifier(d.updatedAt.name)} = "v"."at"
      from "v"
      where ${d.id} = "v"."delivery_id" and ${d.id} = any(${sql.placeholder("ids")}::text[])
        and ${d.status} = 'pending' and ${d.attemptCount} < "v"."attempt_number"
      returning ${d.id} as "id"),
    "recorded" as (
      insert into ${a} ("id", "delivery_id", "project_id", "attempt_number", "url", "started_at", "duration_ms", "status_code", "error", "response_excerpt")
      select "attempt_id", "delivery_id", "project_id", "attempt_number", "url", "at", "duration_ms", "status_code", "error", "excerpt" from "v"
      returning 1)
    select "id" from "moved"`;
});

function settleMany(db: Db, batch: Waiting[]): Promise<{ id: string }[]> {
  // The ids as a Postgres array literal; delivery ids are our own (letters, digits and underscores).
  return settleManyStatement(db, { rows: rowsOf(batch), ids: `{${batch.map((item) => item.settle.deliveryId).join(",")}}` });
}
