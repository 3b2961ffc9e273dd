import http from "node:http";
import type { AddressInfo } from "node:net";
import { stampPeer } from "./peer-address";

/**
 * node:http ↔ web-standard Request/Response, for the servers that run the app's handlers outside Next
 * (the standalone simulator, the test servers).
 */

/**
 * The incoming request as a web Request (body read whole). A GET's `signal` aborts when the client goes
 * away before the answer, as Next does (signalFromNodeResponse): a long poll (the event stream, the
 * inbox's) stops when its client leaves. A request with a body is answered at once and gets none: an
 * AbortController per request was a twentieth of the standalone simulator's CPU at a thousand sends a
 * second (Node 20's AbortSignal is costly to make).
 */
async function webRequestOf(req: http.IncomingMessage, res: http.ServerResponse, base: string): Promise<Request> {
  stampPeer(req);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", base);
  if (method !== "GET") return new Request(url, { method, headers, body: method === "HEAD" ? undefined : new Uint8Array(Buffer.concat(chunks)) });
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return new Request(url, { method, headers, signal: gone.signal });
}

async function writeWebResponse(res: http.ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  res.end(body);
}

/** A node:http server answering with `handle`; an exception answers 500 with its message. */
export function createWebServer(base: () => string, handle: (request: Request) => Promise<Response>): http.Server {
  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      await writeWebResponse(res, await handle(await webRequestOf(req, res, base())));
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  }
  // node:http ignores what a listener returns: answer() turns every failure into the 500 itself, and a
  // socket that breaks while it does is destroyed rather than left as an unhandled rejection.
  return http.createServer((req, res) => void answer(req, res).catch(() => res.destroy()));
}

/**
 * Listens and resolves with the server's base URL (`port` 0: any free one). Keep-alive outlasts any
 * client's idle gap: Node's 5 s default races fetch's connection reuse (ECONNRESET).
 */
export function listenOn(server: http.Server, port = 0, host = "127.0.0.1"): Promise<string> {
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(`http://${host}:${(server.address() as AddressInfo).port}`);
    });
  });
}

/** Closes the server and every connection it holds. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
