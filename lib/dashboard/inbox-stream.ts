import type { BusPort } from "@/lib/ports/bus";
import type { MetricsPort } from "@/lib/ports/metrics";
import { subscribeInboxEvents, type InboxEvent } from "@/lib/domain/inbox-live";
import { onDraining } from "@/lib/server/shutdown-state";

/** A comment line this often keeps proxies and load balancers from closing an idle stream (the contract's 15 s). */
const PING_INTERVAL_MS = 15_000;
/** How long opening a stream may wait for the bus (a Redis that is away): then 503, and the browser polls. */
const SUBSCRIBE_TIMEOUT_MS = 5_000;
/**
 * Chunks a stream may have queued for a reader that does not read (a stalled browser): beyond it the
 * stream ends rather than grow without bound; the browser reconnects and refetches.
 */
const MAX_QUEUED_CHUNKS = 2_000;

export interface InboxStreamOptions {
  bus: BusPort;
  metrics: MetricsPort | null;
  projectId: string;
  /** The stream ends when its signal aborts (the client went away). */
  request: Request;
  pingMs?: number;
}

const encoder = new TextEncoder();

/** One Server-Sent Event of the contract: `event: inbox` and the event as JSON data. */
function sseEvent(event: InboxEvent): string {
  const data =
    event.id === undefined
      ? { type: event.type, conversation_id: event.conversation_id }
      : { type: event.type, conversation_id: event.conversation_id, id: event.id };
  return `event: inbox\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The project's inbox events as a Server-Sent Events body. Resolves once the project's bus channel is
 * listened to (so everything committed after the answer's headers is in the stream), or rejects (the bus
 * unreachable within 5 s). It ends, cleanly and once, when the client leaves (`signal`, or the body is
 * cancelled), when this process starts draining (a shutdown must not wait for open streams: the browser
 * reconnects to another process), or when the reader falls far behind.
 */
export async function openInboxStream(options: InboxStreamOptions): Promise<ReadableStream<Uint8Array>> {
  const { bus, metrics, projectId, request } = options;
  const signal = request.signal;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  const stops: (() => void)[] = [];

  function end(closeBody: boolean) {
    if (ended) return;
    ended = true;
    // Held until here on purpose: a Request's signal follows the one it was made with through a weak
    // reference to the Request's own controller (undici), so a collected Request would never abort.
    void request;
    for (const stop of stops.splice(0)) stop();
    metrics?.inboxStreams(-1);
    if (closeBody) {
      try {
        controller.close();
      } catch {
        // Already closed or errored by the reader's side.
      }
    }
  }

  function write(text: string) {
    if (ended) return;
    if ((controller.desiredSize ?? 0) < -MAX_QUEUED_CHUNKS) return end(true);
    controller.enqueue(encoder.encode(text));
  }

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      cancel() {
        end(false);
      },
    },
    { highWaterMark: 16 },
  );
  metrics?.inboxStreams(1);
  try {
    const unsubscribe = await withTimeout(
      subscribeInboxEvents(bus, projectId, (event) => write(sseEvent(event))),
      SUBSCRIBE_TIMEOUT_MS,
    );
    stops.push(unsubscribe);
  } catch (error) {
    end(true);
    throw error;
  }
  if (signal.aborted) {
    end(true);
    return body;
  }
  const onAbort = () => end(true);
  signal.addEventListener("abort", onAbort, { once: true });
  stops.push(() => signal.removeEventListener("abort", onAbort));
  const ping = setInterval(() => write(": ping\n\n"), options.pingMs ?? PING_INTERVAL_MS);
  ping.unref();
  stops.push(() => clearInterval(ping));
  // Registered last: when draining has begun already this ends the stream at once.
  stops.push(onDraining(() => end(true)));
  // A first line at once: proxies pass the headers on, and the browser's EventSource reports it open.
  write(": connected\n\n");
  return body;
}

/** `promise`, or a rejection after `ms`; what it resolves to later (an unsubscribe) is then called. */
function withTimeout<T extends () => void>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error(`The bus did not subscribe within ${ms} ms.`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (late) value();
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
