import http from "node:http";
import { closeServer, listenOn } from "@/lib/server/node-http";

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (timeouts, slow receivers). */
  delayMs?: number;
}

/** A real webhook receiver on 127.0.0.1: records every request, answers what the test scripts. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Decides each answer; default 200 "ok". */
  reply: (request: Received, index: number) => Reply;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const receiver = { reply: (() => ({ status: 200, body: "ok" })) as Receiver["reply"] };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: Received = { path: req.url ?? "/", headers: req.headers, raw: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
    received.push(request);
    const answer = receiver.reply(request, received.length - 1);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, answer.headers ?? { "content-type": "text/plain" });
    res.end(answer.body ?? "");
  });
  const url = await listenOn(server);
  return Object.assign(receiver, {
    url,
    received,
    async waitFor(count: number, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return received.slice(0, count);
    },
    close: () => closeServer(server),
  });
}
