import type { BusPort } from "@/lib/ports/bus";
import type { MetricsPort } from "@/lib/ports/metrics";
import { chunkBatches, inboxChannel, type InboxEvent } from "./events";

/** How long events gather before they go out: a burst (a status run, a broadcast batch) becomes one publish per project. */
const FLUSH_DELAY_MS = 40;
/** At most this many events wait in a process; beyond it they are dropped (and counted): the streams' next event or poll catches up. */
const MAX_PENDING = 20_000;
/** Bytes per bus payload: under NOTIFY's 8000 with room to spare. */
const PAYLOAD_BUDGET = 7_000;

/**
 * The process's outgoing inbox events. publish() only records the event (a Map insert: nothing on the
 * caller's path waits for the network), deduplicated per project; a timer sends what gathered a few
 * milliseconds later, one bus publish per project and payload chunk. The delay is also what lets a
 * caller that publishes right after its transaction, from inside an outer one (a savepoint), still be
 * read after that outer commit. Errors are counted, never thrown: a lost event costs the dashboard one
 * poll interval, and the write that caused it has already succeeded.
 */
export class InboxPublisher {
  private pending = new Map<string, Map<string, InboxEvent>>();
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  private inFlight = new Set<Promise<void>>();

  constructor(
    private readonly bus: BusPort,
    private readonly metrics: MetricsPort | null,
  ) {}

  publish(projectId: string, event: InboxEvent): void {
    if (this.count >= MAX_PENDING) {
      this.metrics?.inboxEvents("dropped");
      return;
    }
    let events = this.pending.get(projectId);
    if (!events) this.pending.set(projectId, (events = new Map()));
    const key = `${event.type}\u0000${event.conversation_id}\u0000${event.id ?? ""}`;
    if (events.has(key)) return;
    events.set(key, event);
    this.count++;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Sends everything gathered now (the timer's work; also a shutdown's, so nothing gathered is left behind). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batches = this.pending;
    this.pending = new Map();
    this.count = 0;
    for (const [projectId, events] of batches) {
      for (const { payload, count } of chunkBatches([...events.values()], PAYLOAD_BUDGET)) {
        this.track(
          this.bus.publish(inboxChannel(projectId), payload).then(
            () => this.metrics?.inboxEvents("published", count),
            () => this.metrics?.inboxEvents("failed", count),
          ),
        );
      }
    }
  }

  /** Flushes, then waits for the publishes in flight (a runtime's close, before the bus closes). */
  async drain(): Promise<void> {
    this.flush();
    await Promise.all([...this.inFlight]);
  }

  private track(promise: Promise<void>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }
}
