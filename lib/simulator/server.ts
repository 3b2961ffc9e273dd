import type { Simulator } from "@/lib/simulator";
import { closeServer, createWebServer, listenOn } from "@/lib/server/node-http";

/**
 * The simulator on a node:http server of its own, outside the web process: a stand-in for the
 * provider that does not share the app's event loop (npm run simulator, the benchmark). Paths are
 * the in-app ones with or without the /api/simulator prefix, so `<url>/graph` and
 * `<url>/api/simulator/graph` both reach the Graph API.
 */
export interface SimulatorServer {
  url: string;
  close(): Promise<void>;
}

const PREFIX = "/api/simulator";

export async function serveSimulator(simulator: Simulator, options: { port?: number; host?: string } = {}): Promise<SimulatorServer> {
  let base = "";
  const server = createWebServer(
    () => base,
    (request) => {
      const pathname = new URL(request.url).pathname;
      return simulator.handle(request, pathname === PREFIX || pathname.startsWith(`${PREFIX}/`) ? pathname.slice(PREFIX.length) || "/" : pathname);
    },
  );
  base = await listenOn(server, options.port ?? 0, options.host ?? "127.0.0.1");
  return {
    url: base,
    close: async () => {
      // Stops its retries and timers and saves its memory (when it keeps one) for the next start.
      simulator.close();
      await closeServer(server);
    },
  };
}
