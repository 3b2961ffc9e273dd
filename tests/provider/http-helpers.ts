import http from "node:http";
import type { Simulator } from "@/lib/simulator";
import { serveSimulator as serveOnItsOwn } from "@/lib/simulator/server";
import { closeServer, listenOn } from "@/lib/server/node-http";

/** Real HTTP around the simulator and a webhook receiver, for end-to-end provider tests. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Serves the simulator under /api/simulator (and at the root), as `npm run simulator` does. */
export function serveSimulator(simulator: Simulator): Promise<RunningServer> {
  return serveOnItsOwn(simulator);
}

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  json: unknown;
}

export interface Receiver extends RunningServer {
  received: ReceivedRequest[];
  /** Answer status for the next requests (default 200). */
  status: number;
  /** Resolves once `count` requests match, polling every 10 ms for at most `timeoutMs`. */
  waitFor(predicate: (r: ReceivedRequest) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
}

/** Records every request and answers `status`. */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const state = { status: 200 };
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    let json: unknown = null;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch {
      json = null;
    }
    received.push({ path: req.url ?? "/", headers: req.headers, raw, json });
    res.writeHead(state.status, { "Content-Type": "application/json" });
    res.end("{}");
  });
  const url = await listenOn(server);
  return {
    url,
    received,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
    close: () => closeServer(server),
    async waitFor(predicate, count = 1, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matches = received.filter(predicate);
        if (matches.length >= count) return matches;
        if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${count} matching requests, saw ${matches.length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
