import { errorKind, rootMessage } from "@/lib/error-kind";
import { eq, sql } from "drizzle-orm";
import { inboundWebhooks } from "@/lib/db/schema";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { jobPayload, statementWithJob } from "@/lib/ports/queue/job-insert";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { newId } from "@/lib/ids";
import { parseStorableJson } from "@/lib/text/storable";
import type { ItemWriteAlongside, SystemCtx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { normalizeWebhook } from "./normalize";
import { applyInboundEvent, isPending } from "./apply";
import { applyStatusSet } from "./status-set";
import type { InboundEvent } from "./types";
import { withDirectDeliveries } from "@/lib/domain/webhooks/direct";

export const INGEST_JOB = "ingest.process";
export const STATUS_RETRY_JOB = "ingest.status-retry";
/** Retries of an INGEST_JOB after its first run (its definition in jobs.ts uses it); then it is a dead letter. */
export const INGEST_RETRY_LIMIT = 10;
/** Attempts of a STATUS_RETRY_JOB after its first run (its definition in jobs.ts uses it). */
export const STATUS_RETRY_LIMIT = 5;

export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}

/**
 * Step one of ingest, inside the provider's request: store the raw, verified envelope and its job in
 * one transaction, so the provider gets its 200 fast and nothing received is lost.
 */
export async function receiveProviderWebhook(ctx: SystemCtx, input: { platform: ProviderPlatform; rawBody: string }): Promise<string> {
  const id = newId("inboundWebhook");
  // ONE statement, no transaction (lib/ports/queue/job-insert.ts): the envelope exists if and only if its job does.
  const values = { id, platform: input.platform, body: input.rawBody, receivedAt: ctx.now.toISOString(), job: jobPayload(INGEST_JOB, { id }) };
  await envelopeWithJob(ctx.db, ctx.ports.queue.insertion(INGEST_JOB), values);
  return id;
}

const envelopeWithJob = statementWithJob("inbound_webhook_insert_with_job", (insertion) => {
  const value = (name: string) => sql`${sql.placeholder(name)}`;
  const columns = sql`${sql.identifier("id")}, ${sql.identifier("platform")}, ${sql.identifier("body")}, ${sql.identifier("received_at")}`;
  const envelope = sql`insert into ${inboundWebhooks} (${columns}) values (${value("id")}, ${value("platform")}, ${value("body")}, ${value("receivedAt")}::timestamptz)`;
  return sql`with "envelope" as (${envelope} returning 1)${insertion.ctes("job", value("job"))} select ${insertion.notifiedColumn("job")} as "notified"`;
});

const inboundWebhookById = preparedPerDb((db) =>
  db
    .select()
    .from(inboundWebhooks)
    .where(eq(inboundWebhooks.id, sql.placeholder("id")))
    .prepare("inbound_webhook_by_id"),
);

/**
 * Step two, in a job: normalise every item and apply each. Items are idempotent, so a retry is safe.
 * One failing item does not stop the others: the rest are applied, the error is recorded on the
 * envelope and the job fails so the queue retries it (the items already applied change nothing then);
 * after the last retry the envelope is dead-lettered (dead_lettered_at) instead.
 *
 * Each item, and the envelope's outcome, is stamped with the clock's time when it is written (an
 * envelope can hold many items), not the job's start.
 */
export async function processInboundWebhook(
  ctx: SystemCtx,
  input: { id: string },
  attempt: JobAttempt = { retryCount: 0, retryLimit: INGEST_RETRY_LIMIT },
): Promise<void> {
  const { id } = input;
  const { db, ports } = ctx;
  const [row] = await inboundWebhookById(db).execute({ id });
  if (!row || row.processedAt) return;
  let payload: unknown;
  try {
    // NUL characters and lone surrogates cannot be stored (text / jsonb): they become U+FFFD in every
    // string, so the message is kept rather than failing its job on every retry (lib/text/storable.ts).
    payload = parseStorableJson(row.body);
  } catch {
    await db.update(inboundWebhooks).set({ processedAt: ports.clock.now(), error: "Body is not JSON" }).where(eq(inboundWebhooks.id, id));
    return;
  }
  const failures: string[] = [];
  const items = normalizeWebhook(row.platform as ProviderPlatform, payload);
  const runs = statusRuns(items);
  // An envelope of one item (most are), or of one run of statuses, is marked processed by the write
  // that applies it when there is one (a customer message's insert, a status's move, the run's moves):
  // one write and one commit fewer. Any other outcome leaves it to the update below. Never when items
  // are applied one by one out of several: the first one's statement would mark the envelope done
  // before the others are.
  const mark: ItemWriteAlongside | null =
    runs.length === 1 ? { cte: ENVELOPE_PROCESSED_CTE, values: { envelopeId: id, processedAt: ports.clock.now().toISOString() }, written: false } : null;
  const markOneByOne = items.length === 1 ? mark : null;
  for (const group of runs) {
    if (group.length > 1 && (await applyStatusRun(ctx, group, mark && { id, mark }))) continue;
    for (const event of group) {
      try {
        // What the item's deliveries are, this worker attempts once it is applied (webhooks/direct.ts).
        const outcome = await withDirectDeliveries((direct) =>
          applyInboundEvent({ ...ctx, now: ports.clock.now(), direct, withItemWrite: markOneByOne }, event),
        );
        // A status (or an edit, delete or echo) can outrun what it refers to: try it again shortly.
        if (isPending(outcome)) await ports.queue.send(STATUS_RETRY_JOB, { event }, { startAfter: 1000 });
      } catch (error) {
        failures.push(`${event.kind}: ${rootMessage(error)}`);
      }
    }
  }
  if (failures.length) {
    const message = failures.join("; ").slice(0, 2000);
    const final = attempt.retryCount >= attempt.retryLimit;
    // The last attempt parks the envelope as a dead letter instead of failing once more: it stays
    // listed (`svc ingest dead-letters`) with its error rather than vanishing into a failed job.
    await db
      .update(inboundWebhooks)
      .set({ error: message, failedAttempts: sql`${inboundWebhooks.failedAttempts} + 1`, ...(final ? { deadLetteredAt: ports.clock.now() } : {}) })
      .where(eq(inboundWebhooks.id, id));
    if (final) {
      console.error(`[ingest] inbound webhook ${id} dead-lettered after ${attempt.retryCount + 1} attempts: ${message}`);
      return;
    }
    throw new Error(`Inbound webhook ${id}: ${message}`);
  }
  // Written by the item's statement, which committed (it threw otherwise, and failures is not empty).
  if (mark?.written) return;
  await markProcessed(db, id, ports.clock.now());
}

function markProcessed(db: Db, id: string, at: Date) {
  return db.update(inboundWebhooks).set({ processedAt: at, error: null }).where(eq(inboundWebhooks.id, id));
}

/**
 * The envelope marked processed in the statement that applies its one item (SystemCtx.withItemWrite),
 * whatever that wrote: a repeated message or a status that moved nothing is applied all the same.
 */
const ENVELOPE_PROCESSED_CTE = sql`, "envelope_processed" as (update ${inboundWebhooks} set "processed_at" = ${sql.placeholder("processedAt")}::timestamptz, "error" = null where "id" = ${sql.placeholder("envelopeId")})`;

/** The envelope's items in order, consecutive statuses grouped (the provider batches hundreds into one envelope). */
function statusRuns(items: InboundEvent[]): InboundEvent[][] {
  const runs: InboundEvent[][] = [];
  for (const item of items) {
    const last = runs.at(-1);
    if (item.kind === "status" && last?.[0]?.kind === "status") last.push(item);
    else runs.push([item]);
  }
  return runs;
}

/**
 * A run of statuses in ONE transaction, applied as a set (status-set.ts: a few statements for the
 * whole run instead of four or five per status, and one commit). When the set path declines or
 * anything fails, the transaction writes nothing and false sends the caller through the statuses one
 * by one, where a failing one is recorded and the rest are applied, as for any envelope.
 */
async function applyStatusRun(ctx: SystemCtx, group: InboundEvent[], envelope: { id: string; mark: ItemWriteAlongside } | null): Promise<boolean> {
  const mark = envelope?.mark ?? null;
  try {
    await withDirectDeliveries((direct) =>
      ctx.db.transaction(async (tx) => {
        const outcome = await applyStatusSet({ ...ctx, db: tx, now: ctx.ports.clock.now(), direct, withItemWrite: mark }, group);
        if (!outcome) throw new DeclinedRun();
        for (const event of outcome.pending) await ctx.ports.queue.send(STATUS_RETRY_JOB, { event }, { tx, startAfter: 1000 });
        // The envelope is this run: marked in its transaction, by the moves' statement or else here.
        if (envelope && !envelope.mark.written) {
          await markProcessed(tx, envelope.id, ctx.ports.clock.now());
          envelope.mark.written = true;
        }
      }),
    );
    return true;
  } catch {
    // Rolled back, the mark with the rest: the statuses go one by one and the envelope's update marks it.
    if (mark) mark.written = false;
    return false;
  }
}

/** Thrown to roll the set path's transaction back when it declines the run. */
class DeclinedRun extends errorKind("DeclinedRun") {}

/**
 * The STATUS_RETRY_JOB: applies a pending event again. While what it refers to is still missing it
 * throws so the queue retries with backoff; the last attempt applies it as final (an echo is then
 * stored as it is, a status or mutation with nothing to act on is dropped).
 */
export async function retryPendingStatus(ctx: SystemCtx, input: { event: InboundEvent }, attempt: JobAttempt): Promise<void> {
  const { event } = input;
  const final = attempt.retryCount >= attempt.retryLimit;
  const outcome = await withDirectDeliveries((direct) => applyInboundEvent({ ...ctx, direct }, event, { final }));
  if (isPending(outcome) && !final) {
    throw new Error(`Inbound ${event.kind} ${pendingKey(event)} still refers to nothing stored; retrying`);
  }
}

function pendingKey(event: InboundEvent): string {
  if (event.kind === "status") return event.platform_message_id || "(watermark)";
  if (event.kind === "message" || event.kind === "echo") return event.message.id;
  return event.kind;
}
