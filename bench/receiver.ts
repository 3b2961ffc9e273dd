/**
 * Webhook receivers on 127.0.0.1 for the benchmark (and the fault suite, scripts/faults): a fast one
 * (answers 200 at once, records arrival times, the delivery id and, for message.received, the text
 * token) and a slow one (answers after `delayMs`). `onDelivery` sees each parsed body as it arrives.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Arrival {
  at: number;
  event: string;
  /** The event id the delivery carries (x-svc-delivery / webhook-id): the same on every retry. */
  id: string | null;
}

export interface BenchReceiver {
  url: string;
  /** Arrival times (Date.now()) of every delivery since the last reset, with its event type. */
  arrivals: Arrival[];
  /** token → arrival time, for message.received payloads whose text starts with the token prefix. */
  tokens: Map<string, number>;
  /** token → how many times it arrived (more than 1: the same message was delivered again). */
  tokenCounts: Map<string, number>;
  inFlight(): number;
  reset(): void;
  close(): Promise<void>;
}

/** Stored arrivals are capped so a runaway producer cannot grow memory without bound. */
const MAX_ARRIVALS = 500_000;

export async function startReceiver(
  options: { delayMs?: number; tokenPrefix?: string; onDelivery?: (arrival: Arrival, body: unknown) => void } = {},
): Promise<BenchReceiver> {
  const arrivals: Arrival[] = [];
  const tokens = new Map<string, number>();
  const tokenCounts = new Map<string, number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      let event = "?";
      let parsed: unknown = null;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event?: string; payload?: { text?: unknown } };
        parsed = body;
        event = body.event ?? "?";
        const text = body.payload?.text;
        if (options.tokenPrefix && event === "message.received" && typeof text === "string" && text.startsWith(options.tokenPrefix)) {
          if (!tokens.has(text)) tokens.set(text, at);
          tokenCounts.set(text, (tokenCounts.get(text) ?? 0) + 1);
        }
      } catch {
        /* not JSON: counted all the same */
      }
      const header = req.headers["x-svc-delivery"] ?? req.headers["webhook-id"];
      const arrival = { at, event, id: typeof header === "string" ? header : null };
      if (arrivals.length < MAX_ARRIVALS) arrivals.push(arrival);
      options.onDelivery?.(arrival, parsed);
      const answer = () => {
        inFlight--;
        if (!res.destroyed) res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      };
      inFlight++;
      if (options.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, options.delayMs);
        timers.add(timer);
      } else {
        answer();
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    arrivals,
    tokens,
    tokenCounts,
    inFlight: () => inFlight,
    reset() {
      arrivals.length = 0;
      tokens.clear();
      tokenCounts.clear();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
