import { and, asc, desc, eq, gt, inArray, lt } from "drizzle-orm";
import { encodeTime } from "ulid";
import { events } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { EventType } from "@/lib/shared/event-types";
import { signedDelivery } from "./attempt";

/**
 * The event stream behind `svc listen` (docs/api-decisions.md "Forwarding events to localhost"): a
 * long poll over the project's events, each handed back signed exactly as a webhook delivery would be,
 * so the CLI can replay it to the developer's local handler. The server never contacts that URL.
 *
 * Only what a webhook would receive is streamed (events whose `deliver` is true): a message.received
 * routed to automations, the agent or a person, which never reaches the webhook, is not forwarded either.
 */

export const LISTEN_MAX_WAIT_SECONDS = 25;
/** How often a waiting request looks at the database again. */
const POLL_MS = 300;
/**
 * Events younger than this are held back: an event's id is made when its transaction starts, so a
 * slower transaction may commit an older id after a younger one was already streamed. Holding the
 * newest second back lets such stragglers land before the cursor passes them.
 */
export const LISTEN_SETTLE_MS = 1000;

export interface ListenInput {
  /** The cursor of the previous answer; absent: start from now (the answer carries a cursor only). */
  after?: string;
  /** Seconds to wait for an event before answering with none. */
  wait: number;
  limit: number;
  /** Only these event types (the cursor still moves past the others). */
  types?: EventType[];
}

interface ListenedEvent {
  object: "event";
  id: string;
  type: string;
  created_at: string;
  /** The exact raw body a delivery would send now. */
  body: string;
  /** The headers that delivery would carry: content-type, user-agent, x-svc-* and webhook-* signatures. */
  headers: Record<string, string>;
}

export interface ListenBatch {
  object: "event_batch";
  data: ListenedEvent[];
  /** Pass as `after` next time; it moves on even when no event came. */
  cursor: string;
  /** True when the batch is full: call again at once. */
  has_more: boolean;
}

/** The smallest event id of millisecond `ms`: every event made earlier sorts before it. */
function boundaryAt(ms: number): string {
  return `evt_${encodeTime(Math.max(0, ms), 10).toLowerCase()}${"0".repeat(16)}`;
}

const later = (a: string, b: string) => (a > b ? a : b);

export async function listenForEvents(ctx: Ctx, input: ListenInput, signal?: AbortSignal): Promise<ListenBatch> {
  if (input.after === undefined) return { object: "event_batch", data: [], cursor: await startCursor(ctx), has_more: false };
  // The clock port's monotonic time: a test that moves the clock past the wait ends the poll.
  const clock = ctx.ports.clock;
  const deadline = clock.monotonicMs() + Math.min(input.wait, LISTEN_MAX_WAIT_SECONDS) * 1000;
  for (;;) {
    // The service clock (not the wall clock) places the bound: event ids are made from it.
    const bound = boundaryAt(ctx.ports.clock.now().getTime() - LISTEN_SETTLE_MS);
    const rows = await ctx.db
      .select({ id: events.id, type: events.type, payload: events.payload, createdAt: events.createdAt })
      .from(events)
      .where(
        and(
          eq(events.projectId, ctx.project.id),
          eq(events.deliver, true),
          gt(events.id, input.after),
          lt(events.id, bound),
          input.types?.length ? inArray(events.type, input.types) : undefined,
        ),
      )
      .orderBy(asc(events.id))
      .limit(input.limit);
    const full = rows.length === input.limit;
    // A full batch stops at its last event; otherwise everything before the bound has been looked at.
    const cursor = full ? rows[rows.length - 1]!.id : later(input.after, bound);
    if (rows.length || clock.monotonicMs() >= deadline || signal?.aborted) {
      const now = ctx.ports.clock.now();
      const data = rows.map((event): ListenedEvent => {
        const { body, headers } = signedDelivery(event, ctx.project, now);
        return { object: "event", id: event.id, type: event.type, created_at: event.createdAt.toISOString(), body, headers };
      });
      return { object: "event_batch", data, cursor, has_more: full };
    }
    await pause(Math.min(POLL_MS, Math.max(0, deadline - clock.monotonicMs())), signal);
  }
}

/**
 * "Now": past every event the project has, even one stamped ahead of the clock (a provider's time),
 * so a new listener never replays history.
 */
async function startCursor(ctx: Ctx): Promise<string> {
  const [latest] = await ctx.db.select({ id: events.id }).from(events).where(eq(events.projectId, ctx.project.id)).orderBy(desc(events.id)).limit(1);
  const now = boundaryAt(ctx.ports.clock.now().getTime());
  return latest ? later(latest.id, now) : now;
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
