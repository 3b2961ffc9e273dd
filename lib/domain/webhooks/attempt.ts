import { and, eq, lt, sql } from "drizzle-orm";
import { events, projects, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { eventDelivered } from "./delivered";
import type { Db } from "@/lib/ports/db/types";
import type { Clock } from "@/lib/ports/clock";
import { builtOnceSql, preparedPerDb } from "@/lib/ports/db/prepared";
import { tickBatch, writeBehind } from "@/lib/ports/db/tick-batch";
import type { SystemCtx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { activeWebhookSecrets, type WebhookSigningProject } from "@/lib/domain/projects";
import { clearWebhookFailing, noteWebhookFailure } from "@/lib/domain/projects/webhook-health";
import { OutboundNetworkError, OutboundTimeoutError, SsrfError, safeRequest } from "@/lib/ports/net/safe-request";
import { serializeDelivery, signatureHeaders } from "./signing";
import { ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS, PAUSE_AFTER_MS, RESPONSE_EXCERPT_BYTES, nextDelayMs } from "./schedule";
import { sendAttempt, type DeliveryJob } from "./enqueue";

export interface AttemptOptions {
  /** Injected by tests; the SSRF-guarded client otherwise. */
  request?: typeof safeRequest;
  /** Per-attempt timeout; 10 s (docs/spec/decisions.md) unless a test shortens it. */
  timeoutMs?: number;
}

export type AttemptOutcome = "succeeded" | "retry_scheduled" | "failed" | "gone" | "skipped" | "paused";

interface Answer {
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

/**
 * The delivery with its event and project (every attempt starts with it): only the columns an attempt
 * reads, so a row costs the worker less to decode (the whole project row was most of it).
 */
const deliveryLookups = preparedPerDb((db) =>
  db
    .select({
      delivery: { id: webhookDeliveries.id, status: webhookDeliveries.status, attemptCount: webhookDeliveries.attemptCount },
      event: { id: events.id, type: events.type, payload: events.payload },
      project: {
        id: projects.id,
        webhookUrl: projects.webhookUrl,
        webhookPausedAt: projects.webhookPausedAt,
        webhookFailingSince: projects.webhookFailingSince,
        webhookSecretSealed: projects.webhookSecretSealed,
        previousWebhookSecretSealed: projects.previousWebhookSecretSealed,
        previousWebhookSecretExpiresAt: projects.previousWebhookSecretExpiresAt,
      },
    })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(projects, eq(projects.id, webhookDeliveries.projectId))
    .where(sql`${webhookDeliveries.id} = any(array(select jsonb_array_elements_text(${sql.placeholder("ids")}::text::jsonb)))`)
    .prepare("webhook_delivery_attempt_lookups"),
);
type LookupRow = Awaited<ReturnType<ReturnType<typeof deliveryLookups>["execute"]>>[number];
/** The deliveries a fetch starts together look themselves up in one statement (lib/ports/db/tick-batch.ts). */
const deliveryLookup = tickBatch<string, LookupRow>({
  keyOf: (id) => id,
  rowKey: (row) => row.delivery.id,
  load: (db, ids) => deliveryLookups(db).execute({ ids: JSON.stringify(ids) }),
});

/** What a final attempt writes (settleFinal). */
interface FinalSettle {
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

/**
 * A final attempt (success, 410, or the last one) and the delivery's outcome in one statement: one round
 * trip, atomic without BEGIN/COMMIT. Only the attempt that is still current moves the delivery (false
 * otherwise): a zombie attempt whose worker was presumed dead (and whose job was retried) must not
 * undo what the retry did. The deliveries that finish while one settle is being written share the next
 * statement and its commit (lib/ports/db/tick-batch.ts), each still answered whether its own moved; a
 * delivery twice in one batch (a zombie beside its retry) settles alone, in order. Built once
 * (builtOnceSql): building it per delivery was a sixth of the worker's CPU per delivery (README "Performance").
 */
const settleFinal = writeBehind<FinalSettle, boolean>(async (db, settles) => {
  const ids = new Set(settles.map((settle) => settle.deliveryId));
  if (ids.size < settles.length) {
    const results: boolean[] = [];
    for (const settle of settles) results.push(...(await settleFinalRows(db, [settle])));
    return results;
  }
  return settleFinalRows(db, settles);
});

async function settleFinalRows(db: Db, settles: FinalSettle[]): Promise<boolean[]> {
  const moved = new Set((await settleFinalStatement(db, { settles: JSON.stringify(settles) })).map((row) => row.id));
  return settles.map((settle) => moved.has(settle.deliveryId));
}

const settleFinalStatement = builtOnceSql<{ id: string }>("webhook_attempts_settle_final", () => {
  const input = sql`select * from jsonb_to_recordset(${sql.placeholder("settles")}::text::jsonb) as s(
    "now" timestamptz, "deliveryId" text, "projectId" text, "attemptId" text, "attemptNumber" int, "url" text,
    "durationMs" int, "statusCode" int, "error" text, "excerpt" text, "status" text, "lastError" text)`;
  const moved = sql`update ${webhookDeliveries} as d set "attempt_count" = s."attemptNumber", "last_status_code" = s."statusCode",
      "last_error" = s."lastError", "status" = s."status", "next_attempt_at" = null, "completed_at" = s."now", "updated_at" = s."now"
    from "input" as s
    where d."id" = s."deliveryId" and d."status" = 'pending' and d."attempt_count" < s."attemptNumber"
    returning d."id"`;
  // Data-modifying CTEs run to completion whether or not the final SELECT reads them: every attempt is recorded.
  const recorded = sql`insert into ${webhookAttempts} ("id", "delivery_id", "project_id", "attempt_number", "url", "started_at", "duration_ms", "status_code", "error", "response_excerpt")
    select "attemptId", "deliveryId", "projectId", "attemptNumber", "url", "now", "durationMs", "statusCode", "error", "excerpt" from "input"`;
  return sql`with "input" as (${input}), "moved" as (${moved}), "recorded" as (${recorded}) select "id" from "moved"`;
});

/**
 * One delivery attempt: sign the exact bytes, POST them (10 s, no redirects, SSRF-guarded), record
 * the attempt, then succeed, stop (410), schedule the next attempt, or give up after the last.
 * A job retried for an attempt already recorded (the worker died after recording) does nothing.
 */
export async function attemptDelivery(ctx: SystemCtx, job: DeliveryJob, options: AttemptOptions = {}): Promise<AttemptOutcome> {
  const db = ctx.db;
  const [row] = await deliveryLookup(db, job.deliveryId);
  if (!row || row.delivery.status !== "pending" || row.delivery.attemptCount >= job.attempt) return "skipped";
  const { delivery, event, project } = row;
  const now = ctx.now;
  if (project.webhookPausedAt) {
    await db.update(webhookDeliveries).set({ status: "paused", nextAttemptAt: null, updatedAt: now }).where(eq(webhookDeliveries.id, delivery.id));
    return "paused";
  }
  if (!project.webhookUrl) {
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: "The project has no webhook_url.", nextAttemptAt: null, completedAt: now, updatedAt: now })
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
    const moved = await settleFinal(db, {
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
    });
    if (!moved) return "skipped";
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
      .set({ ...progress, nextAttemptAt: nextAt, updatedAt: now })
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
    return { statusCode: res.status, error: null, excerpt: res.body.toString("utf8"), durationMs: res.durationMs };
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
