import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { events, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { scheduleDelivery } from "./enqueue";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;
type DeliveryStatus = DeliveryRow["status"];

export interface DeliveryFilter {
  event?: string | undefined;
  status?: DeliveryStatus | undefined;
  since?: Date | undefined;
}

function serializeDelivery(row: DeliveryRow, lastDurationMs: number | null) {
  return {
    object: "webhook_delivery" as const,
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    trigger: row.trigger,
    attempt_count: row.attemptCount,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    last_duration_ms: lastDurationMs,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

function serializeAttempt(row: AttemptRow) {
  return {
    object: "webhook_attempt" as const,
    id: row.id,
    attempt_number: row.attemptNumber,
    url: row.url,
    started_at: row.startedAt.toISOString(),
    duration_ms: row.durationMs,
    status_code: row.statusCode,
    error: row.error,
    response_excerpt: row.responseExcerpt,
  };
}

export async function listDeliveries(ctx: Ctx, filter: DeliveryFilter, page: PageParams) {
  const where = and(
    eq(webhookDeliveries.projectId, ctx.project.id),
    filter.event ? eq(webhookDeliveries.eventType, filter.event) : undefined,
    filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
    filter.since ? gte(webhookDeliveries.createdAt, filter.since) : undefined,
  );
  const result = await paginate(ctx.db, webhookDeliveries, where, page);
  const durations = await lastDurations(
    ctx,
    result.data.map((d) => d.id),
  );
  return { data: result.data.map((d) => serializeDelivery(d, durations.get(d.id) ?? null)), has_more: result.has_more };
}

/** How long each delivery's latest attempt took, in one query for a page of deliveries. */
async function lastDurations(ctx: Ctx, deliveryIds: string[]): Promise<Map<string, number>> {
  if (deliveryIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectDistinctOn([webhookAttempts.deliveryId], { deliveryId: webhookAttempts.deliveryId, durationMs: webhookAttempts.durationMs })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.projectId, ctx.project.id), inArray(webhookAttempts.deliveryId, deliveryIds)))
    .orderBy(webhookAttempts.deliveryId, desc(webhookAttempts.attemptNumber));
  return new Map(rows.map((r) => [r.deliveryId, r.durationMs]));
}

async function getDeliveryRowOrThrow(ctx: Ctx, id: string): Promise<DeliveryRow> {
  const [row] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, ctx.project.id), eq(webhookDeliveries.id, id)));
  if (!row) throw notFound("webhook delivery", id);
  return row;
}

/** A delivery with every attempt (oldest first) and the event it carries. */
export async function getDelivery(ctx: Ctx, id: string) {
  const row = await getDeliveryRowOrThrow(ctx, id);
  const attempts = await ctx.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, row.id))
    .orderBy(asc(webhookAttempts.attemptNumber), asc(webhookAttempts.id));
  const [event] = await ctx.db.select().from(events).where(eq(events.id, row.eventId));
  return {
    ...serializeDelivery(row, attempts.at(-1)?.durationMs ?? null),
    attempts: attempts.map(serializeAttempt),
    event: { id: event!.id, type: event!.type, payload: event!.payload, created_at: event!.createdAt.toISOString() },
  };
}

function requireWebhook(ctx: Ctx) {
  if (!ctx.project.webhookUrl) {
    throw new SvcError("unprocessable", "The project has no webhook_url: set one with PATCH /projects/{id} first.", {
      issues: { webhook_url: ["Required to deliver events."] },
    });
  }
}

/** Sends the delivery's event again, as a new delivery with the same event id. */
export async function redeliver(ctx: Ctx, id: string) {
  const original = await getDeliveryRowOrThrow(ctx, id);
  requireWebhook(ctx);
  const newId = await ctx.db.transaction((tx) =>
    scheduleDelivery(tx, ctx.ports.queue, { id: original.eventId, projectId: ctx.project.id, type: original.eventType }, ctx.now, "redeliver"),
  );
  return getDelivery(ctx, newId!);
}

export interface ReplayInput {
  since: Date;
  until?: Date | undefined;
  event?: string | undefined;
  /** Only events whose latest delivery has this status (or "none": events never delivered). */
  status?: DeliveryStatus | "none" | undefined;
}

const MAX_REPLAY_EVENTS = 10_000;

/**
 * Re-sends every matching event once (a new delivery each, same event id). Only events that are
 * routed to the webhook count: message.received under FLOWS routing, for example, never was one.
 */
export async function replay(ctx: Ctx, input: ReplayInput) {
  requireWebhook(ctx);
  const until = input.until ?? ctx.now;
  if (until < input.since) throw new SvcError("invalid_request", "until must not be before since.", { issues: { until: ["Must be at or after since."] } });
  // Each matched event's latest delivery, found through the event's own index (a lateral lookup): a
  // window over every delivery of the project ran past the statement timeout at a few thousand events.
  const latest = ctx.db
    .select({ status: webhookDeliveries.status })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventId, events.id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(1)
    .as("latest");
  const statusFilter: SQL | undefined = input.status === "none" ? sql`${latest.status} is null` : input.status ? eq(latest.status, input.status) : undefined;
  const matched = await ctx.db
    .select({ id: events.id, type: events.type })
    .from(events)
    .leftJoinLateral(latest, sql`true`)
    .where(
      and(
        eq(events.projectId, ctx.project.id),
        eq(events.deliver, true),
        gte(events.createdAt, input.since),
        lte(events.createdAt, until),
        input.event ? eq(events.type, input.event) : undefined,
        statusFilter,
      ),
    )
    .orderBy(asc(events.id))
    .limit(MAX_REPLAY_EVENTS + 1);
  if (matched.length > MAX_REPLAY_EVENTS) {
    throw new SvcError("invalid_request", `More than ${MAX_REPLAY_EVENTS} events match: narrow the window (since/until) or filter by event.`, {
      issues: { since: ["Too many events in this window."] },
    });
  }
  const ids: string[] = [];
  for (const event of matched) {
    const id = await ctx.db.transaction((tx) =>
      scheduleDelivery(tx, ctx.ports.queue, { id: event.id, projectId: ctx.project.id, type: event.type }, ctx.now, "replay"),
    );
    if (id) ids.push(id);
  }
  return { object: "webhook_replay" as const, count: ids.length, delivery_ids: ids.slice(0, 100) };
}
