import { closeServer, createWebServer, listenOn } from "@/lib/server/node-http";
import { dispatch } from "@/lib/api/router";
import { handleCli } from "@/lib/cli-api/routes";
import { platformOfSlug, receiveDelivery, verifySubscription } from "@/lib/api/provider-webhook";
import { receiveFlowEndpointCall } from "@/lib/api/provider-flow-endpoint";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { closedSimulatorAnswer } from "@/lib/api/simulator-gate";
import { simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { Runtime } from "@/lib/server/runtime";
import { opsEndpoint } from "@/lib/server/ops-endpoints";

/**
 * A real HTTP server that serves what the Next app serves (the API, the provider webhooks, the
 * built-in simulator and /healthz, /readyz, /metrics) through the same handlers, for end-to-end tests
 * over the network.
 */
export interface TestServer {
  url: string;
  simulator: Simulator;
  close(): Promise<void>;
}

export async function startTestServer(
  getRuntime: () => Runtime,
  options: {
    statusDelaysMs?: { sent: number; delivered: number; read: number };
    /** Whether the simulator's customer and control routes are open to anyone (env().simulatorPublic); default open. */
    simulatorOpen?: boolean;
    /** The bearer token GET /metrics requires (SVC_METRICS_TOKEN in production); unset → /metrics answers 404. */
    metricsToken?: string;
    /** Listen on this port (default: any free one). */
    port?: number;
  } = {},
): Promise<TestServer> {
  let base = "";
  const simulator = createSimulator({
    callbackBaseUrl: () => base,
    appSecret: simulatorAppSecret,
    statusDelaysMs: options.statusDelaysMs ?? { sent: 20, delivered: 40, read: 60 },
    log: () => {},
  });
  const server = createWebServer(
    () => base,
    (request) => route(request, new URL(request.url)),
  );

  async function route(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    const ops = opsEndpoint(path, { metricsToken: options.metricsToken ?? null });
    if (ops) return ops(request, async () => getRuntime());
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
    if (path.startsWith("/api/simulator")) {
      const target = path.slice("/api/simulator".length) || "/";
      return closedSimulatorAnswer(request, target, options.simulatorOpen ?? true) ?? simulator.handle(request, target);
    }
    return new Response("Not found", { status: 404 });
  }

  base = await listenOn(server, options.port ?? 0);
  return {
    url: base,
    simulator,
    close: () => {
      simulator.reset();
      return closeServer(server);
    },
  };
}
