/**
 * Under `next dev` each route compiles on its first request, which can take many seconds on a small
 * machine. README's "Try the sandbox" block is pasted the moment the key is printed; before this, its
 * first request waited for the simulator's route to compile, and the simulator's webhook to the
 * provider route (compiling in turn) ran out of time. So a dev start asks each route of that loop once,
 * in the background (the server must be serving meanwhile), and the key is printed once they answered.
 * Any answer counts (401, 403 or a compile error's 500): the route is compiled, waiting longer changes nothing.
 */
export const SANDBOX_LOOP_ROUTES = [
  // The provider's subscription handshake without a token: 403, and the webhook route is compiled.
  "/api/providers/platform-a/webhook",
  // Without a key: 401 each; README's /v1 paths go through the rewrite to /api/v1.
  "/v1/projects",
  "/v1/conversations",
  "/v1/messages",
  // The simulator: its customer routes and Graph API are one route (it also loads its saved memory).
  "/api/simulator/customer/inbox?sender_id=warm-up&address=warm-up",
];
const WARM_UP_LIMIT_MS = 5 * 60_000;
const RETRY_MS = 250;

function isNextDevServer(): boolean {
  return process.env.NEXT_RUNTIME === "nodejs" && process.env.NODE_ENV === "development";
}

/** This server's own address: Next records it once listening (start-server.js); PORT otherwise. */
function ownOrigin(): string {
  return process.env.__NEXT_PRIVATE_ORIGIN || `http://localhost:${process.env.PORT || 3000}`;
}

async function answers(url: string, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())) });
      await response.arrayBuffer().catch(() => undefined);
      return true;
    } catch {
      // Not listening yet, or the connection dropped while a compile restarted the route: ask again.
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  return false;
}

/** Asks every route of the sandbox loop at once; resolves when all answered (ok) or the limit passed. */
export async function warmSandboxRoutes(base: string, limitMs = WARM_UP_LIMIT_MS): Promise<{ ok: boolean; ms: number }> {
  const started = Date.now();
  const answered = await Promise.all(SANDBOX_LOOP_ROUTES.map((route) => answers(`${base}${route}`, started + limitMs)));
  return { ok: answered.every(Boolean), ms: Date.now() - started };
}

/**
 * Runs `ready` once the sandbox loop's routes answer under `next dev` (at once anywhere else), with a
 * note for the person reading the console. Never throws; does not hold up the caller.
 */
export function whenSandboxLoopReady(ready: (note: string) => void): void {
  if (!isNextDevServer()) return ready("");
  warmSandboxRoutes(ownOrigin())
    .then(({ ok, ms }) =>
      ready(
        ok
          ? `  The API, the provider webhook and the simulator answer (compiled in ${(ms / 1000).toFixed(1)} s): README's "Try the sandbox" works now.\n`
          : `  Some routes were still compiling after ${WARM_UP_LIMIT_MS / 60_000} min; the first requests may be slow.\n`,
      ),
    )
    .catch(() => ready(""));
}
