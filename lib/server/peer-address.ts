import { randomBytes } from "node:crypto";
import http from "node:http";

/**
 * The TCP peer of each request, for the client-address rules (lib/api/client-ip.ts). A Next.js route
 * handler gets a web Request without its socket, and `next start` copies the socket's address into
 * X-Forwarded-For only when the client sent none, so a client that sends its own header hides its
 * address. Our servers stamp every request with the socket's address in a header whose name is
 * secret to this process (random per start): no client can send it, and its absence means "unknown".
 */
const NAME = Symbol.for("svc.peerHeader");
const PATCHED = Symbol.for("svc.peerStamping");
const holder = globalThis as { [NAME]?: string; [PATCHED]?: boolean };

/** This process's peer header (made on first use). */
export function peerHeaderName(): string {
  holder[NAME] ??= `x-svc-peer-${randomBytes(16).toString("hex")}`;
  return holder[NAME];
}

/** The stamped peer address of a request that reached one of our servers, else null. */
export function stampedPeer(headers: Headers): string | null {
  const name = holder[NAME];
  return (name && headers.get(name)) || null;
}

/** Writes the socket's address on the request (our node:http servers: lib/server/node-http.ts). */
export function stampPeer(req: http.IncomingMessage): void {
  const address = req.socket?.remoteAddress;
  if (address) req.headers[peerHeaderName()] = address;
}

/**
 * Stamps every request any node:http server of this process receives, before its handler sees it:
 * how `next start`'s own server (which we do not create) gets the stamp. instrumentation.ts calls it
 * at start; requests that arrive before that carry no stamp and count as "address unknown".
 */
export function stampEveryServersPeers(): () => void {
  if (holder[PATCHED]) return () => {};
  holder[PATCHED] = true;
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request" && args[0] instanceof http.IncomingMessage) stampPeer(args[0]);
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
  // Undoes it (a test that patched its worker process puts the prototype back).
  return () => {
    http.Server.prototype.emit = emit as typeof http.Server.prototype.emit;
    holder[PATCHED] = false;
  };
}
