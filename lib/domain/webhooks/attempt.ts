import { and, eq, lt, sql } from "drizzle-orm";
import { events, projects, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { eventDelivered } from "./delivered";
import type { Db } from "@/lib/ports/db/types";
import type { Clock } from "@/lib/ports/clock";
import { builtOnce, preparedPerDb } from "@/lib/ports/db/prepared";
import type { SystemCtx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { activeWebhookSecrets, type WebhookSigningProject } from "@/lib/domain/projects";
import { clearWebhookFailing, noteWebhookFailure } from "@/lib/domain/projects/webhook-health";
import { OutboundNetworkError, OutboundTimeoutError, SsrfError, safeRequest } from "@/lib/ports/net/safe-request";
import { serializeDelivery, signatureHeaders } from "./signing";
import { ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS, PAUSE_AFTER_MS, RESPONSE_EXCERPT_BYTES, nextDelayMs } from "./schedule";
import { sendAttempt, type DeliveryJob } from "./enqueue";
import { settleTogether, type FinalSettle, type SettleOne } from "./settle-batch";
import { toStorable } from "@/lib/text/storable";

export interface AttemptOptions {
  /** Injected by tests; the SSRF-guarded client otherwise. */
  request?: typeof safeRequest;
  /** Per-attempt timeout; 10 s (docs/spec/decisions.md) unless a test shortens it. */
  timeoutMs?: number;
}

export type AttemptOutcome = "succeeded" | "retry_scheduled" | "failed" | "gone" | "skipped" | "paused";

/** What an attempt reads first: the delivery with its event and project (deliveryLookup's row). */
export interface AttemptScope {
  delivery: { id: string; status: string; attemptCount: number };
  event: { id: string; type: string; payload: unknown };
  project: {
    id: string;
    webhookUrl: string | null;
    webhookPausedAt: Date | null;
    webhookFailingSince: Date | null;
    webhookSecretSealed: string | null;
    previousWebhookSecretSealed: string | null;
    previousWebhookSecretExpiresAt: Date | null;
  };
}

interface Answer {
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

/** The project's columns an attempt reads (AttemptScope["project"]): where it POSTs and what it signs with. */
export const ATTEMPT_PROJECT_COLUMNS = {
  id: projects.id,
  webhookUrl: projects.webhookUrl,
  webhookPausedAt: projects.webhookPausedAt,
  webhookFailingSince: projects.webhookFailingSince,
  webhookSecretSealed: projects.webhookSecretSealed,
  previousWebhookSecretSealed: projects.previousWebhookSecretSealed,
  previousWebhookSecretExpiresAt: projects.previousWebhookSecretExpiresAt,
};

/**
 * The delivery with its event and project (every attempt starts with it): only the columns an attempt
 * reads, so a row costs the worker less to decode (the whole project row was most of it).
 */
const deliveryLookup = preparedPerDb((db) =>
  db
    .select({
      delivery: { id: webhookDeliveries.id, status: webhookDeliveries.status, attemptCount: webhookDeliveries.attemptCount },
      event: { id: events.id, type: events.type, payload: events.payload },
      project: ATTEMPT_PROJECT_COLUMNS,
    })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(projects, eq(projects.id, webhookDeliveries.projectId))
    .where(eq(webhookDeliveries.id, sql.placeholder("id")))
    .prepare("webhook_delivery_attempt_lookup"),
);

/**
 * A final attempt (success, 410, or the last one) and the delivery's outcome in one statement: one round
 * trip, atomic without BEGIN/COMMIT. Only the attempt that is still current moves the delivery (`moved`
 * is 0 otherwise): a zombie attempt whose worker was presumed dead (and whose job was retried) must not
 * undo what the retry did. Built once (builtOnce): building it per delivery was a sixth of the worker's
 * CPU per delivery (README "Performance").
 */
const settleFinal = builtOnce<{ moved: number }>("webhook_attempt_settle_final", (db) => {
  const p = (name: string) => sql.placeholder(name);
  const now = sql`${p("now")}::timestamptz`;
  const moved = db.$with("moved").as(
    db
      .update(webhookDeliveries)
      .set({
        attemptCount: sql`${p("attemptNumber")}`,
        lastStatusCode: sql`${p("statusCode")}`,
        lastError: sql`${p("lastError")}`,
        status: sql`${p("status")}`,
        nextAttemptAt: null,
        leaseExpiresAt: null,
        completedAt: now,
        updatedAt: now,
      })
      .where(and(eq(webhookDeliveries.id, p("deliveryId")), eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.attemptCount, p("attemptNumber"))))
      .returning({ id: webhookDeliveries.id }),
  );
  const recorded = db.$with("recorded").as(
    db
      .insert(webhookAttempts)
      .values({
        id: p("attemptId"),
        deliveryId: p("deliveryId"),
        projectId: p("projectId"),
        attemptNumber: p("attemptNumber"),
        url: p("url"),
        startedAt: now,
        durationMs: p("durationMs"),
        statusCode: p("statusCode"),
        error: p("error"),
        responseExcerpt: p("excerpt"),
      })
      .returning({ id: webhookAttempts.id }),
  );
  return db
    .with(moved, recorded)
    .select({ moved: sql<number>`(select count(*) from ${moved})::int` })
    .from(recorded);
});

/** One final settle in its own statement (settle-batch.ts writes the ones that finish together as one). */
export const settleOne: SettleOne = async (db, settle) => {
  const [row] = await settleFinal(db, { ...settle });
  return Boolean(row?.moved);
};

/**
 * One delivery attempt: sign the exact bytes, POST them (10 s, no redirects, SSRF-guarded), record
 * the attempt, then succeed, stop (410), schedule the next attempt, or give up after the last.
 * A job retried for an attempt already recorded (the worker died after recording) does nothing.
 * Each outcome is counted (svc_webhook_deliveries_total), whether a job or a direct attempt made it.
 */
export async function attemptDelivery(
  ctx: SystemCtx,
  job: DeliveryJob,
  options: AttemptOptions = {},
  /** The scope as the statement that wrote the delivery read it (a direct attempt, direct.ts): no lookup. */
  written?: AttemptScope,
): Promise<AttemptOutcome> {
  const outcome = await attemptOnce(ctx, job, options, written);
  // "skipped": a rerun of an attempt already settled, not a delivery of its own.
  if (outcome !== "skipped") ctx.ports.metrics.webhookDelivery(outcome);
  return outcome;
}

async function attemptOnce(ctx: SystemCtx, job: DeliveryJob, options: AttemptOptions, written: AttemptScope | undefined): Promise<AttemptOutcome> {
  const db = ctx.db;
  const [row]: (AttemptScope | undefined)[] = written ? [written] : await deliveryLookup(db).execute({ id: job.deliveryId });
  if (!row || row.delivery.status !== "pending" || row.delivery.attemptCount >= job.attempt) return "skipped";
  const { delivery, event, project } = row;
  const now = ctx.now;
  if (project.webhookPausedAt) {
    await db
      .update(webhookDeliveries)
      .set({ status: "paused", nextAttemptAt: null, leaseExpiresAt: null, updatedAt: now })
      .where(eq(webhookDeliveries.id, delivery.id));
    return "paused";
  }
  if (!project.webhookUrl) {
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: "The project has no webhook_url.", nextAttemptAt: null, leaseExpiresAt: null, completedAt: now, updatedAt: now })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, "pending")));
    return "failed";
  }

  const { body, headers } = signedDelivery(event, project, now);
  const answer = await post(ctx.ports.clock, options.request ?? safeRequest, options.timeoutMs ?? ATTEMPT_TIMEOUT_MS, project.webhookUrl, headers, body);
  const attemptNumber = job.attempt;
  const answered = answer.statusCode === null ? "no_answer" : answer.statusCode >= 200 && answer.statusCode < 300 ? "succeeded" : "http_error";
  ctx.ports.metrics.webhookAttempt(answered, answer.durationMs / 1000);
  const attempt = {
    id: newId("webhookAttempt", now.getTime()),
    deliveryId: delivery.id,
    projectId: project.id,
    attemptNumber,
    url: project.webhookUrl,
    startedAt: now,
    durationMs: Math.round(answer.durationMs),
    statusCode: answer.statusCode,
    error: answer.error,
    responseExcerpt: answer.excerpt,
  };
  const progress = { attemptCount: attemptNumber, lastStatusCode: answer.statusCode, lastError: answer.error };
  const succeeded = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
  if (!succeeded) await noteFailure(db, project.id, now);
  const delay = succeeded || answer.statusCode === 410 || attemptNumber >= MAX_ATTEMPTS ? null : nextDelayMs(attemptNumber);

  if (succeeded || delay === null) {
    const settle: FinalSettle = {
      now: now.toISOString(),
      deliveryId: delivery.id,
      projectId: project.id,
      attemptId: attempt.id,
      attemptNumber,
      url: attempt.url,
      durationMs: attempt.durationMs,
      statusCode: answer.statusCode,
      error: answer.error,
      excerpt: answer.excerpt,
      status: succeeded ? "succeeded" : "failed",
      lastError: answer.statusCode === 410 ? "410 Gone: the receiver asked to stop." : progress.lastError,
    };
    if (!(await settleTogether(db, settle, settleOne))) return "skipped";
    // Only when it was failing: an update per delivery would serialise every delivery of a project on its row.
    if (succeeded && project.webhookFailingSince) await clearWebhookFailing(db, project.id);
    if (succeeded) await eventDelivered.run(ctx, { eventId: event.id, eventType: event.type });
    return succeeded ? "succeeded" : answer.statusCode === 410 ? "gone" : "failed";
  }

  return db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values(attempt);
    const nextAt = new Date(now.getTime() + delay);
    // Only the attempt that is still current may move the delivery (see settleFinal).
    const current = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.attemptCount, attemptNumber));
    const moved = await tx
      .update(webhookDeliveries)
      // The next attempt is a job's: a direct attempt's lease (direct.ts) ends here.
      .set({ ...progress, nextAttemptAt: nextAt, leaseExpiresAt: null, updatedAt: now })
      .where(current)
      .returning({ id: webhookDeliveries.id });
    if (!moved.length) return "skipped";
    await sendAttempt(tx, ctx.ports.queue, { deliveryId: delivery.id, attempt: attemptNumber + 1 }, project.id, nextAt);
    return "retry_scheduled";
  });
}

/**
 * The exact body and headers of a delivery of `event` signed at `now` with the project's active
 * secrets. Also what `svc listen` forwards (lib/domain/webhooks/listen.ts), so a local handler sees
 * byte for byte what production sends.
 */
export function signedDelivery(
  event: { id: string; type: string; payload: unknown },
  project: WebhookSigningProject,
  now: Date,
): { body: string; headers: Record<string, string> } {
  const body = serializeDelivery(event.type, event.payload, now);
  const headers = {
    "content-type": "application/json",
    "user-agent": "svc-webhooks/1.0",
    ...signatureHeaders({ eventId: event.id, eventType: event.type, body, secrets: activeWebhookSecrets(project, now), timestamp: now }),
  };
  return { body, headers };
}

async function post(clock: Clock, request: typeof safeRequest, timeoutMs: number, url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const started = clock.monotonicMs();
  try {
    const res = await request(url, { method: "POST", headers, body, timeoutMs, maxResponseBytes: RESPONSE_EXCERPT_BYTES });
    // A NUL in the answer (text cannot hold one) failed the settle, and a delivery the receiver had
    // taken was attempted again on every lease sweep: stored as U+FFFD instead.
    return { statusCode: res.status, error: null, excerpt: toStorable(res.body.toString("utf8")), durationMs: res.durationMs };
  } catch (error) {
    const durationMs = Math.round(clock.monotonicMs() - started);
    if (OutboundTimeoutError.is(error)) return { statusCode: null, error: `timeout after ${timeoutMs} ms`, excerpt: null, durationMs };
    if (SsrfError.is(error)) return { statusCode: null, error: `blocked: ${error.reason}`, excerpt: null, durationMs };
    if (OutboundNetworkError.is(error)) return { statusCode: null, error: `network: ${error.message}`, excerpt: null, durationMs };
    throw error;
  }
}

/** Tracks continuous failure; after 5 days of it the endpoint is paused until the webhook is updated. */
async function noteFailure(db: Db, projectId: string, now: Date) {
  await noteWebhookFailure(db, projectId, now, PAUSE_AFTER_MS);
}
