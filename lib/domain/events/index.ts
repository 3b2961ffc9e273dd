import { eq, sql, type SQL } from "drizzle-orm";
import { events } from "@/lib/db/schema";
import { builtOnce } from "@/lib/ports/db/prepared";
import type { Db } from "@/lib/ports/db/types";
import { executeRows, insertRowsSql } from "@/lib/ports/db/bulk";
import { newId } from "@/lib/ids";
import { insertEventDelivering, type DeliveringEvent, type DeliveringOutcome } from "./insert-delivering";
import { deliverStoredEvents } from "./leased-deliveries";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ConversationRow } from "@/lib/domain/conversations";
import type { EventType } from "@/lib/shared/event-types";
import { effectiveRouting } from "@/lib/shared/routing-modes";
import type { THREAD_OWNERS } from "@/lib/db/schema";

type ThreadOwner = (typeof THREAD_OWNERS)[number];

export type EventRoute = "external" | "flows" | "agent" | "none" | "handoff";

/** An event to store; `at` is its created_at (a status keeps the provider's time). */
export interface EventInput {
  project: { id: string };
  type: EventType;
  payload: Record<string, unknown>;
  at: Date;
  /** A provider retry with the same key makes no second event. */
  dedupeKey?: string;
  deliver?: boolean;
  route?: EventRoute;
  /** Hold the delivery: the caller releases the event later (message.received waiting for its media). */
  defer?: boolean;
}

/**
 * An event's id is made from when it is stored, not from `at` (a provider's timestamp, often seconds
 * old): ids then only grow as events are written, which the event stream (webhooks/listen.ts) needs
 * for its cursor, whatever process writes them. A time ahead of the clock is kept, so the id never
 * sorts before its own created_at.
 */
function eventId(ctx: Pick<SystemCtx, "ports">, at: Date): string {
  return newId("event", Math.max(at.getTime(), ctx.ports.clock.now().getTime()));
}

/**
 * Stores an event with its wire payload and, when it is routed to the webhook, its delivery and
 * delivery job, all on ctx.db (so inside the caller's transaction they commit together): from a job
 * or a request alike, the delivery goes to ctx.ports.queue. Returns the id, or null when an event
 * with the same dedupe key exists already (a provider retry).
 */
export async function emitEvent(ctx: Pick<SystemCtx, "db" | "ports" | "direct">, input: EventInput): Promise<string | null> {
  const { project, type, at } = input;
  const deliver = input.deliver ?? true;
  if (deliver && !input.defer) {
    // The common case, one statement: the event, its delivery and the delivery's first job, or, leased
    // to this process (lib/domain/webhooks/direct.ts), no job: the attempt follows the caller's commit.
    const event = deliveringEventOf(ctx, input);
    return settleDeliveringEvent(ctx, event, await insertEventDelivering(ctx.db, ctx.ports.queue, event));
  }
  const id = eventId(ctx, at);
  const [row] = await insertEvent(ctx.db, {
    id,
    projectId: project.id,
    type,
    payload: input.payload,
    deliver,
    route: input.route ?? "external",
    dedupeKey: input.dedupeKey ?? null,
    createdAt: at,
  });
  return row ? id : null;
}

/**
 * An event for the webhook, as insertEventDelivering (or a statement holding its CTEs) writes it, with
 * the direct-delivery slot it reserved (its lease) when this process attempts deliveries itself.
 */
export function deliveringEventOf(ctx: Pick<SystemCtx, "ports" | "direct">, input: EventInput): DeliveringEvent {
  const lease = ctx.direct?.reserve(input.project.id, ctx.ports.clock.now()) ?? null;
  return {
    id: eventId(ctx, input.at),
    projectId: input.project.id,
    type: input.type,
    payload: input.payload,
    route: input.route ?? "external",
    dedupeKey: input.dedupeKey ?? null,
    createdAt: input.at,
    deliveryId: newId("webhookDelivery", input.at.getTime()),
    ...(lease ? { leaseExpiresAt: lease } : {}),
  };
}

/** Once its statement ran: the reserved slot goes to the delivery it wrote, or back. The event's id, or null (its dedupe key existed). */
export function settleDeliveringEvent(ctx: Pick<SystemCtx, "direct">, event: DeliveringEvent, outcome: DeliveringOutcome): string | null {
  if (event.leaseExpiresAt) ctx.direct?.settle(event.projectId, outcome.pending ? event.deliveryId : null, outcome.scope);
  return outcome.stored ? event.id : null;
}

/**
 * emitEvent for many events in one multi-row insert (an envelope's statuses): the same rows, dedupe
 * and deliveries, with each project's webhook target read once and the deliveries this process
 * attempts written together (leased-deliveries.ts). Returns the ids of the events stored
 * (a dedupe key that exists already stores nothing, as in emitEvent).
 */
export async function emitEvents(ctx: Pick<SystemCtx, "db" | "ports" | "direct">, inputs: EventInput[]): Promise<string[]> {
  if (!inputs.length) return [];
  const rows = inputs.map((input) => ({
    id: eventId(ctx, input.at),
    projectId: input.project.id,
    type: input.type,
    payload: input.payload,
    deliver: input.deliver ?? true,
    route: input.route ?? "external",
    dedupeKey: input.dedupeKey ?? null,
    createdAt: input.at,
  }));
  const stored = new Set((await executeRows<{ id: string }>(ctx.db, insertRowsSql(events, rows, sql`on conflict do nothing returning id`))).map((r) => r.id));
  await deliverStoredEvents(
    ctx,
    rows.filter((row, i) => stored.has(row.id) && row.deliver && !inputs[i]!.defer),
  );
  return [...stored];
}

/**
 * An event that goes to no webhook now (not routed to it, or held for its media), unless its dedupe key
 * exists. Built once (builtOnce): ingest and the send jobs run it inside their transactions.
 */
const insertEvent = builtOnce<{ id: string }>("event_insert", (db) => {
  const p = (name: string) => sql.placeholder(name);
  return db
    .insert(events)
    .values({
      id: p("id"),
      projectId: p("projectId"),
      type: p("type"),
      payload: p("payload"),
      deliver: p("deliver"),
      route: p("route"),
      dedupeKey: p("dedupeKey"),
      createdAt: p("createdAt"),
    })
    .onConflictDoNothing()
    .returning({ id: events.id });
});

/**
 * emitEvent's write of an event that goes to no webhook now (not routed to it, or held for its media),
 * as the CTE "event_inserted" (RETURNING id) of a caller's statement, written only when `when` holds
 * and its dedupe key is new. Its placeholders are named with `prefix` (recordedEventValues).
 */
export function recordedEventSql(prefix: string, when: SQL): SQL {
  const p = (name: string) => sql`${sql.placeholder(prefix + name)}`;
  return sql`"event_inserted" as (insert into ${events} ("id", "project_id", "type", "payload", "deliver", "route", "dedupe_key", "created_at")
    select ${p("id")}, ${p("projectId")}, ${p("type")}, ${p("payload")}::text::jsonb, ${p("deliver")}::boolean, ${p("route")}, ${p("dedupeKey")}::text, ${p("at")}::text::timestamptz
    where ${when}
    on conflict do nothing returning "id")`;
}

/** The event recordedEventSql writes: its id, and its placeholder values named with `prefix`. */
export function recordedEventValues(ctx: Pick<SystemCtx, "ports">, input: EventInput, prefix: string): { id: string; values: Record<string, unknown> } {
  const id = eventId(ctx, input.at);
  const values: Record<string, unknown> = {
    id,
    projectId: input.project.id,
    type: input.type,
    payload: JSON.stringify(input.payload),
    deliver: input.deliver ?? true,
    route: input.route ?? "external",
    dedupeKey: input.dedupeKey ?? null,
    at: input.at.toISOString(),
  };
  return { id, values: Object.fromEntries(Object.entries(values).map(([name, value]) => [prefix + name, value])) };
}

/**
 * Where inbound goes (docs/spec/service-spec.md: Channel.routing_mode, Events → Delivery rule 5, docs/spec/decisions.md AGENT):
 * by the channel's effective routing (lib/shared/routing-modes.ts): a dedicated channel's own mode,
 * else its project's; on the shared sandbox, the joined project's. AGENT is a project mode, so a
 * channel routes AGENT only by following its project.
 * Under AGENT, `owner` is the thread's owner (lib/domain/agents/thread-control.ts; undefined = the
 * agent): the agent's threads go to it; a SERVICE thread goes to the webhook (automations never run
 * under AGENT), a BUSINESS_INBOX one waits for a person, like a handoff.
 */
export function inboundRoute(
  project: ProjectRow,
  channel: ChannelRow,
  conversation: ConversationRow,
  owner?: ThreadOwner,
): { route: EventRoute; deliver: boolean } {
  const mode = effectiveRouting(project.routingMode, channel);
  if (mode === "AGENT") return agentRoute(conversation, owner);
  if (mode === "NONE") return { route: "none", deliver: false };
  if (mode === "FLOWS") return { route: "flows", deliver: false };
  if (conversation.handoffStatus === "HUMAN_ACTIVE") return { route: "handoff", deliver: false };
  return { route: "external", deliver: true };
}

function agentRoute(conversation: ConversationRow, owner: ThreadOwner | undefined): { route: EventRoute; deliver: boolean } {
  if (owner === "BUSINESS_INBOX" || conversation.handoffStatus === "HUMAN_ACTIVE") return { route: "handoff", deliver: false };
  if (owner === undefined || owner === "PROVIDER_AGENT") return { route: "agent", deliver: false };
  return { route: "external", deliver: true };
}

/** An event's payload rewritten before delivery: the media cache fills in the file it held the event for. */
export async function replaceEventPayload(db: Db, eventId: string, payload: Record<string, unknown>): Promise<void> {
  await db.update(events).set({ payload }).where(eq(events.id, eventId));
}
