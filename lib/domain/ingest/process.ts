import { eq, sql } from "drizzle-orm";
import { inboundWebhooks } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import type { JobQueue } from "@/lib/ports/queue";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { newId } from "@/lib/ids";
import { normalizeWebhook } from "./normalize";
import { applyInboundEvent, isPending } from "./apply";
import type { InboundEvent } from "./types";

export const INGEST_JOB = "ingest.process";
export const STATUS_RETRY_JOB = "ingest.status-retry";
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
 * envelope and the job fails so the queue retries it (the items already applied change nothing then).
 */
export async function processInboundWebhook(deps: IngestDeps, id: string): Promise<void> {
  const [row] = await inboundWebhookById(deps.db).execute({ id });
  if (!row || row.processedAt) return;
  let payload: unknown;
  try {
    // NUL characters cannot be stored in Postgres text or jsonb: drop them from every string.
    payload = JSON.parse(row.body, (_key, value: unknown) => (typeof value === "string" && value.includes("\u0000") ? value.replaceAll("\u0000", "") : value));
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
      failures.push(`${event.kind}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length) {
    const message = failures.join("; ").slice(0, 2000);
    await deps.db.update(inboundWebhooks).set({ error: message }).where(eq(inboundWebhooks.id, id));
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
