import { eq } from "drizzle-orm";
import { inboundWebhooks } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { JobQueue } from "@/lib/ports/queue";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { newId } from "@/lib/ids";
import { normalizeWebhook } from "./normalize";
import { applyInboundEvent } from "./apply";
import type { InboundEvent } from "./types";

export const INGEST_JOB = "ingest.process";
export const STATUS_RETRY_JOB = "ingest.status-retry";

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

/** Step two, in a job: normalise every item and apply each. Items are idempotent, so a retry is safe. */
export async function processInboundWebhook(deps: IngestDeps, id: string): Promise<void> {
  const [row] = await deps.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, id));
  if (!row || row.processedAt) return;
  let payload: unknown;
  try {
    payload = JSON.parse(row.body);
  } catch {
    await deps.db.update(inboundWebhooks).set({ processedAt: deps.now(), error: "Body is not JSON" }).where(eq(inboundWebhooks.id, id));
    return;
  }
  for (const event of normalizeWebhook(row.platform as ProviderPlatform, payload)) {
    const outcome = await applyInboundEvent(deps.db, event, deps.now());
    // A status can outrun the send job that stores the provider id: try it again shortly.
    if (outcome === "status_pending") await deps.queue.send(STATUS_RETRY_JOB, { event }, { startAfter: 1000 });
  }
  await deps.db.update(inboundWebhooks).set({ processedAt: deps.now() }).where(eq(inboundWebhooks.id, id));
}

export async function retryPendingStatus(deps: IngestDeps, event: InboundEvent, attempt: { retryCount: number; retryLimit: number }): Promise<void> {
  const outcome = await applyInboundEvent(deps.db, event, deps.now());
  if (outcome === "status_pending" && attempt.retryCount < attempt.retryLimit) {
    throw new Error(`No message with provider id ${event.kind === "status" ? event.platform_message_id : "?"} yet`);
  }
}
