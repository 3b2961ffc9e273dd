import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { safeRequest } from "@/lib/ports/net/safe-request";

/**
 * safeRequest reuses connections to IP-literal loopback targets (allowPrivateNetwork), and sends a
 * request again on a fresh connection when the reused one turns out closed by the server.
 * A raw TCP server, so the test controls exactly what each connection does.
 */
let server: net.Server | null = null;
const sockets = new Set<net.Socket>();
afterEach(async () => {
  // The client pool keeps its connections open: close them, or the server would wait for them.
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

const OK = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\nKeep-Alive: timeout=30\r\n\r\nok";

/** `onRequest(connection, n)` answers the n-th request (1-based) seen on a connection, or drops it. */
async function listen(onRequest: (socket: net.Socket, connection: number, n: number) => void) {
  let connections = 0;
  const requestsPerConnection: number[] = [];
  server = net.createServer((socket) => {
    sockets.add(socket);
    const connection = ++connections;
    requestsPerConnection.push(0);
    let buffered = "";
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      // Bodies are small and sent with Content-Length: a request is complete once headers + body arrived.
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        const n = ++requestsPerConnection[connection - 1]!;
        onRequest(socket, connection, n);
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server!.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, connections: () => connections, requestsPerConnection };
}

const post = (url: string) =>
  safeRequest(url, {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
    timeoutMs: 5000,
    maxResponseBytes: 1024,
    allowPrivateNetwork: true,
  });

describe("safeRequest connection reuse", () => {
  it("sends consecutive requests to one host over one kept-alive connection", async () => {
    const target = await listen((socket) => socket.write(OK));
    for (let i = 0; i < 3; i++) expect((await post(target.url)).status).toBe(200);
    expect(target.connections()).toBe(1);
    expect(target.requestsPerConnection).toEqual([3]);
  });

  it("sends the request again on a new connection when the reused one was closed by the server", async () => {
    // The first connection answers once, then drops the next request without a word (as a server
    // does when its keep-alive timeout fires just as the request arrives).
    const target = await listen((socket, connection, n) => {
      if (connection === 1 && n === 2) socket.destroy();
      else socket.write(OK);
    });
    expect((await post(target.url)).status).toBe(200);
    const again = await post(target.url);
    expect(again.status).toBe(200);
    expect(again.body.toString()).toBe("ok");
    expect(target.connections()).toBe(2);
    expect(target.requestsPerConnection).toEqual([2, 1]);
  });
});
