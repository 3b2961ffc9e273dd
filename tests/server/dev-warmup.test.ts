import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeServer } from "@/lib/server/node-http";
import { SANDBOX_LOOP_ROUTES, warmSandboxRoutes, whenSandboxLoopReady } from "@/lib/server/dev-warmup";

/**
 * Under next dev the key is printed once README's sandbox loop routes answer (lib/server/dev-warmup.ts):
 * the warm-up asks each route until it answers, whatever the status, including a server that only
 * starts listening later. (The whole loop against next dev: scripts/readme-dev-check.ts.)
 */
let server: http.Server | null = null;

afterEach(async () => {
  if (server?.listening) await closeServer(server);
  server = null;
});

describe("the dev warm-up", () => {
  it("asks every route of the sandbox loop until each answers, waiting for a server that starts late", async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
    const { port } = probe.address() as AddressInfo;
    await closeServer(probe);
    const asked: string[] = [];
    server = http.createServer((req, res) => {
      asked.push(req.url ?? "");
      // Compiling: the answer comes late, and refusing (401/403) still means the route is ready.
      setTimeout(() => res.writeHead(asked.length % 2 ? 401 : 403).end(), 100);
    });
    setTimeout(() => server!.listen(port, "127.0.0.1"), 400);

    const warmed = await warmSandboxRoutes(`http://127.0.0.1:${port}`, 10_000);
    expect(warmed.ok).toBe(true);
    expect(warmed.ms).toBeGreaterThanOrEqual(400);
    expect(asked.sort()).toEqual([...SANDBOX_LOOP_ROUTES].sort());
  });

  it("gives up at its limit when nothing answers", async () => {
    const warmed = await warmSandboxRoutes("http://127.0.0.1:9", 600);
    expect(warmed.ok).toBe(false);
  });

  it("outside next dev (a worker, the CLI) runs at once, without a note", () => {
    const notes: string[] = [];
    whenSandboxLoopReady((note) => notes.push(note));
    expect(notes).toEqual([""]);
  });
});
