import http from "node:http";
import type { AddressInfo } from "node:net";
import { dispatch } from "@/lib/api/router";
import { handleCli } from "@/lib/cli-api/routes";
import { platformOfSlug, receiveDelivery, verifySubscription } from "@/lib/api/provider-webhook";
import { receiveFlowEndpointCall } from "@/lib/api/provider-flow-endpoint";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { Runtime } from "@/lib/server/runtime";

/**
 * A real HTTP server that serves what the Next app serves (the API, the provider webhooks and the
 * built-in simulator) through the same handlers, for end-to-end tests over the network.
 */
export interface TestServer {
  url: string;
  simulator: Simulator;
  close(): Promise<void>;
}

export async function startTestServer(
  getRuntime: () => Runtime,
  options: { statusDelaysMs?: { sent: number; delivered: number; read: number } } = {},
): Promise<TestServer> {
  let base = "";
  const simulator = createSimulator({
    callbackBaseUrl: () => base,
    appSecret: simulatorAppSecret,
    statusDelaysMs: options.statusDelaysMs ?? { sent: 20, delivered: 40, read: 60 },
    log: () => {},
  });
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const url = new URL(req.url ?? "/", base);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      // A client that goes away aborts request.signal, as Next does (signalFromNodeResponse): a long poll (GET /events/listen) stops.
      const gone = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      const request = new Request(url, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
        signal: gone.signal,
      });
      const response = await route(request, url);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });

  async function route(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    if (path.startsWith("/api/v1")) return dispatch(request, path.slice("/api/v1".length) || "/", getRuntime());
    if (path.startsWith("/api/cli")) return handleCli(request, path.slice("/api/cli".length) || "/", getRuntime());
    const provider = /^\/api\/providers\/([^/]+)\/webhook$/.exec(path);
    if (provider) {
      const platform = platformOfSlug(provider[1]!);
      if (!platform) return new Response("Not found", { status: 404 });
      return request.method === "GET" ? verifySubscription(platform, url) : receiveDelivery(platform, request, getRuntime());
    }
    const flowEndpoint = /^\/api\/providers\/([^/]+)\/flows\/([^/]+)\/endpoint$/.exec(path);
    if (flowEndpoint && request.method === "POST") return receiveFlowEndpointCall(platformOfSlug(flowEndpoint[1]!), flowEndpoint[2]!, request, getRuntime());
    if (path.startsWith("/api/simulator")) return simulator.handle(request, path.slice("/api/simulator".length) || "/");
    return new Response("Not found", { status: 404 });
  }

  // Longer than any idle gap in a test: Node's 5 s default races fetch's connection reuse (ECONNRESET).

  server.keepAliveTimeout = 120_000;

  server.headersTimeout = 121_000;

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    simulator,
    close: () =>
      new Promise<void>((resolve) => {
        simulator.reset();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
