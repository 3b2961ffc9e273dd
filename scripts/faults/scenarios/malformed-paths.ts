/**
 * Part of 4. Hostile inputs: paths that are not valid percent-encoding, on every mount of the
 * production server (proxy.ts answers them 400 invalid_request itself, lib/http/malformed-path.ts),
 * one by one (rows of the hostile table) and then as a concurrent burst: no 500, no dropped socket.
 */
import { send } from "../../../bench/load";
import type { Stack } from "../stack";
import type { Report } from "../report";

/** One malformed path per mount (and the shapes Next.js fails to decode: %ZZ, a cut sequence, encoded surrogates, a bare %). */
export const MALFORMED_PATHS: { method: string; path: string }[] = [
  { method: "GET", path: "/api/v1/messages/%E0%A4%A" },
  { method: "GET", path: "/api/v1/%" },
  { method: "GET", path: "/v1/messages/%ED%A0%80" },
  { method: "GET", path: "/api/dashboard/projects/%ZZ" },
  { method: "POST", path: "/api/cli/%ZZ" },
  { method: "POST", path: "/api/providers/%ZZ/webhook" },
  { method: "POST", path: "/api/providers/platform-a/flows/%ZZ/endpoint" },
  { method: "GET", path: "/api/simulator/%ZZ" },
  { method: "GET", path: "/api/auth/%ZZ" },
];

const BURST = 320;
const CONCURRENCY = 32;

/** The malformed paths again and again, CONCURRENCY at a time: every answer must be the JSON 400. */
export async function malformedPathBurst(stack: Stack, r: Report): Promise<void> {
  const tally = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < BURST) {
      const { method, path } = MALFORMED_PATHS[next++ % MALFORMED_PATHS.length]!;
      let outcome: string;
      try {
        const a = await send(stack.agent, {
          method,
          url: `${stack.base}${path}`,
          headers: { "content-type": "application/json" },
          body: "{}",
          timeoutMs: 15_000,
        });
        outcome = a.status === 400 && /application\/json/.test(String(a.headers["content-type"])) ? "400 json" : `${a.status} ${a.body.slice(0, 60)}`;
      } catch (error) {
        outcome = `no answer: ${error instanceof Error ? error.message : String(error)}`;
      }
      tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const seconds = (performance.now() - started) / 1000;
  const line = [...tally].map(([what, n]) => `${n} × ${what}`).join(", ");
  r.info(`malformed paths, ${BURST} requests ${CONCURRENCY} at a time over ${MALFORMED_PATHS.length} mounts in ${seconds.toFixed(1)} s: ${line}`);
  r.check(tally.get("400 json") === BURST, `malformed-path burst: ${line}; expected ${BURST} × 400 json`);
}
