import { eq, sql } from "drizzle-orm";
import { inboundWebhooks } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import type { JobQueue } from "@/lib/ports/queue";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { newId } from "@/lib/ids";
import { toStorable } from "@/lib/text/storable";
import { normalizeWebhook } from "./normalize";
import { applyInboundEvent, isPending } from "./apply";
import type { InboundEvent } from "./types";

export const INGEST_JOB = "ingest.process";
export const STATUS_RETRY_JOB = "ingest.status-retry";
/** Retries of an INGEST_JOB after its first run (lib/jobs defines the queue with it); then it is a dead letter. */
export const INGEST_RETRY_LIMIT = 10;
/** Attempts of a STATUS_RETRY_JOB after its first run (lib/jobs defines the queue with the same retryLimit). */
export const STATUS_RETRY_LIMIT = 5;

export interface IngestDeps {
  db: Db;
  queue: JobQueue;
  now: () => Date;
}

/**
 * Step one of ingest, inside the provider's request: store the raw, verified envelope and its job in
 * one transaction, so the provider gets its 200 fast and nothing received is lost.
 */
export async function receiveProviderWebhook(deps: IngestDeps, platform: ProviderPlatform, rawBody: string): Promise<string> {
  const id = newId("inboundWebhook");
  await deps.db.transaction(async (tx) => {
    await tx.insert(inboundWebhooks).values({ id, platform, body: rawBody, receivedAt: deps.now() });
    await deps.queue.send(INGEST_JOB, { id }, { tx });
  });
  return id;
}

const inboundWebhookById = preparedPerDb((db) => db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, sql.placeholder("id"))).prepare("inbound_webhook_by_id"));

/**
 * Step two, in a job: normalise every item and apply each. Items are idempotent, so a retry is safe.
 * One failing item does not stop the others: the rest are applied, the error is recorded on the
 * envelope and the job fails so the queue retries it (the items already applied change nothing then);
 * after the last retry the envelope is dead-lettered (dead_lettered_at) instead.
 */
export async function processInboundWebhook(deps: IngestDeps, id: string, attempt: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: INGEST_RETRY_LIMIT }): Promise<void> {
  const [row] = await inboundWebhookById(deps.db).execute({ id });
  if (!row || row.processedAt) return;
  let payload: unknown;
  try {
    // NUL characters and lone surrogates cannot be stored (text / jsonb): they become U+FFFD in every
    // string, so the message is kept rather than failing its job on every retry (lib/text/storable.ts).
    payload = JSON.parse(row.body, (_key, value: unknown) => (typeof value === "string" ? toStorable(value) : value));
  } catch {
    await deps.db.update(inboundWebhooks).set({ processedAt: deps.now(), error: "Body is not JSON" }).where(eq(inboundWebhooks.id, id));
    return;
  }
  const failures: string[] = [];
  for (const event of normalizeWebhook(row.platform as ProviderPlatform, payload)) {
    try {
      const outcome = await applyInboundEvent(deps.db, event, deps.now());
      // A status (or an edit, delete or echo) can outrun what it refers to: try it again shortly.
      if (isPending(outcome)) await deps.queue.send(STATUS_RETRY_JOB, { event }, { startAfter: 1000 });
    } catch (error) {
      failures.push(`${event.kind}: ${rootMessage(error)}`);
    }
  }
  if (failures.length) {
    const message = failures.join("; ").slice(0, 2000);
    const limit = attempt.retryLimit > 0 ? attempt.retryLimit : INGEST_RETRY_LIMIT;
    const final = attempt.retryCount >= limit;
    // The last attempt parks the envelope as a dead letter instead of failing once more: it stays
    // listed (`svc ingest dead-letters`) with its error rather than vanishing into a failed job.
    await deps.db
      .update(inboundWebhooks)
      .set({ error: message, failedAttempts: sql`${inboundWebhooks.failedAttempts} + 1`, ...(final ? { deadLetteredAt: deps.now() } : {}) })
      .where(eq(inboundWebhooks.id, id));
    if (final) {
      console.error(`[ingest] inbound webhook ${id} dead-lettered after ${attempt.retryCount + 1} attempts: ${message}`);
      return;
    }
    throw new Error(`Inbound webhook ${id}: ${message}`);
  }
  await deps.db.update(inboundWebhooks).set({ processedAt: deps.now(), error: null }).where(eq(inboundWebhooks.id, id));
}

/**
 * The STATUS_RETRY_JOB: applies a pending event again. While what it refers to is still missing it
 * throws so the queue retries with backoff; the last attempt applies it as final (an echo is then
 * stored as it is, a status or mutation with nothing to act on is dropped).
 */
export async function retryPendingStatus(deps: IngestDeps, event: InboundEvent, attempt: { retryCount: number; retryLimit: number }): Promise<void> {
  // The queue reports retryLimit 0 when the fetched job carries no metadata: fall back to the limit
  // the job is defined with (lib/jobs), or every pending event would get a single attempt.
  const limit = attempt.retryLimit > 0 ? attempt.retryLimit : STATUS_RETRY_LIMIT;
  const final = attempt.retryCount >= limit;
  const outcome = await applyInboundEvent(deps.db, event, deps.now(), { final });
  if (isPending(outcome) && !final) {
    throw new Error(`Inbound ${event.kind} ${pendingKey(event)} still refers to nothing stored; retrying`);
  }
}

function pendingKey(event: InboundEvent): string {
  if (event.kind === "status") return event.platform_message_id || "(watermark)";
  if (event.kind === "message" || event.kind === "echo") return event.message.id;
  return event.kind;
}

/** The innermost cause's message: drizzle wraps the database's own words in "Failed query: <sql>". */
function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
