import http from "node:http";
import { isDraining } from "./shutdown-state";

/**
 * The requests this process is answering, across every node:http server in it, for a graceful
 * shutdown (lib/server/shutdown.ts): which servers to close, and when the last answer went out.
 * `next start` creates its server itself, so, as peer-address.ts does, the prototype's emit is
 * wrapped before any handler sees a request. While draining, every answer closes its connection
 * (Connection: close), so keep-alive clients reconnect elsewhere instead of reusing this process.
 */
export interface RequestTracking {
  /** Servers that have received at least one request (the ones to close). */
  servers(): http.Server[];
  inFlight(): number;
  /** Marks the answers not started yet to close their connection (called when draining begins). */
  closeConnectionsAfterAnswers(): void;
  /** Resolves true once nothing is in flight, false at `deadline` (epoch ms) if something still is. */
  idle(deadline: number): Promise<boolean>;
}

const KEY = Symbol.for("svc.requestTracking");
const holder = globalThis as { [KEY]?: RequestTracking };

function closeAfter(res: http.ServerResponse): void {
  if (!res.headersSent) res.setHeader("connection", "close");
}

export function trackEveryServersRequests(): RequestTracking {
  if (holder[KEY]) return holder[KEY];
  const servers = new Set<http.Server>();
  const answering = new Set<http.ServerResponse>();
  const waiters: (() => void)[] = [];
  // One listener function for every response (no closure per request).
  function answered(this: http.ServerResponse) {
    answering.delete(this);
    if (answering.size === 0) for (const wake of waiters.splice(0)) wake();
  }
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request" && args[1] instanceof http.ServerResponse) {
      const res = args[1];
      servers.add(this);
      answering.add(res);
      if (isDraining()) closeAfter(res);
      res.on("close", answered);
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
  const tracking: RequestTracking = {
    servers: () => [...servers],
    inFlight: () => answering.size,
    closeConnectionsAfterAnswers: () => answering.forEach(closeAfter),
    async idle(deadline) {
      if (answering.size === 0) return true;
      let timer: NodeJS.Timeout | undefined;
      const done = await Promise.race([
        new Promise<boolean>((resolve) => waiters.push(() => resolve(true))),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
      return done || answering.size === 0;
    },
  };
  holder[KEY] = tracking;
  return tracking;
}
