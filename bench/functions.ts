/**
 * Hosted functions in `npm run bench` (issue 16): the overhead of a warm invoke over GET /limits in
 * the same run (both one request at a time, so queueing is not measured), and trivial invocations/s
 * alone and beside a CPU-heavy function that spins to its CPU limit on every run: the heavy one must
 * not starve the trivial one (the sandbox's pool is larger than the core count on purpose).
 */
import type http from "node:http";
import { closedLoop, sendJson, type ClosedLoopResult, type HttpRequest } from "./load";
import { round } from "./stats";
import type { PhaseFn } from "./report";

export interface FunctionsBenchResult {
  limitsP50Ms: number | null;
  invokeP50Ms: number | null;
  invokeP99Ms: number | null;
  overheadP50Ms: number | null;
  trivialAlonePerSecond: number;
  trivialBesideHeavyPerSecond: number;
  heavyRuns: number;
  keptRatio: number | null;
  firstError: string | null;
}

interface FunctionsBenchOptions {
  base: string;
  auth: Record<string, string>;
  agent: http.Agent;
  durationMs: number;
  log: (line: string) => void;
  phase: PhaseFn;
}

async function deploy(o: FunctionsBenchOptions, slug: string, source: string): Promise<string> {
  const headers = { ...o.auth, "content-type": "application/json" };
  const created = await sendJson<{ id: string }>(o.agent, {
    method: "POST",
    url: `${o.base}/api/v1/functions`,
    headers,
    json: { slug, name: slug, trigger_type: "KEYWORD" },
  });
  if (created.status !== 200) throw new Error(`create ${slug}: HTTP ${created.status}`);
  const deployed = await sendJson<{ status: string; diagnostics: string[] }>(o.agent, {
    method: "POST",
    url: `${o.base}/api/v1/functions/${created.body.id}/deploy`,
    headers,
    json: { source },
  });
  if (deployed.body.status !== "ok") throw new Error(`deploy ${slug}: ${JSON.stringify(deployed.body)}`);
  return created.body.id;
}

export async function benchFunctions(o: FunctionsBenchOptions): Promise<FunctionsBenchResult> {
  const trivial = await deploy(o, `bench-trivial-${Date.now()}`, "export default async (event) => ({ ok: true, n: event.arguments.n ?? 0 });");
  const heavy = await deploy(o, `bench-heavy-${Date.now()}`, "export default async () => { while (true) {} };");
  const invoke = (id: string): HttpRequest => ({
    method: "POST",
    url: `${o.base}/api/v1/functions/${id}/invoke`,
    headers: { ...o.auth, "content-type": "application/json" },
    body: '{"arguments":{"n":1}}',
  });
  const limits: HttpRequest = { method: "GET", url: `${o.base}/api/v1/limits`, headers: o.auth };
  const loop = (next: () => HttpRequest, connections: number, durationMs = o.durationMs) =>
    closedLoop({ agent: o.agent, connections, durationMs, maxRequests: 10_000_000, next });

  await loop(() => invoke(trivial), 4, 2_000); // warm: every worker of the pool started and jitted
  const limitsOne = await o.phase(
    "GET /limits, one at a time",
    () => loop(() => limits, 1),
    (r) => r.requests,
  );
  const invokeOne = await o.phase(
    "invoke trivial, one at a time",
    () => loop(() => invoke(trivial), 1),
    (r) => r.requests,
  );
  const alone = await o.phase(
    "invoke trivial ×4, alone",
    () => loop(() => invoke(trivial), 4),
    (r) => r.requests,
  );
  let heavyRuns = 0;
  // Its CPU per operation is per trivial invocation, the heavy runs' CPU included.
  const besideHeavy = await o.phase(
    "invoke trivial ×4, beside a heavy one",
    async () => {
      const heavyLoop = loop(() => invoke(heavy), 1, o.durationMs + 1_000);
      const result = await loop(() => invoke(trivial), 4);
      heavyRuns = (await heavyLoop).requests;
      return result;
    },
    (r) => r.requests,
  );
  const p50 = (r: ClosedLoopResult) => r.latency.p50;
  const overhead = p50(invokeOne) !== null && p50(limitsOne) !== null ? p50(invokeOne)! - p50(limitsOne)! : null;
  const result: FunctionsBenchResult = {
    limitsP50Ms: round(p50(limitsOne), 2),
    invokeP50Ms: round(p50(invokeOne), 2),
    invokeP99Ms: round(invokeOne.latency.p99, 2),
    overheadP50Ms: round(overhead, 2),
    trivialAlonePerSecond: round(alone.rps, 0)!,
    trivialBesideHeavyPerSecond: round(besideHeavy.rps, 0)!,
    heavyRuns,
    keptRatio: alone.rps ? round(besideHeavy.rps / alone.rps, 2) : null,
    firstError: invokeOne.firstError ?? alone.firstError ?? besideHeavy.firstError,
  };
  o.log(
    `functions: invoke p50 ${result.invokeP50Ms} ms vs /limits ${result.limitsP50Ms} ms (overhead ${result.overheadP50Ms} ms); ` +
      `trivial ${result.trivialAlonePerSecond}/s alone, ${result.trivialBesideHeavyPerSecond}/s beside ${heavyRuns} heavy runs`,
  );
  return result;
}
