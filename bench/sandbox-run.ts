/**
 * `npx tsx bench/sandbox-run.ts [runs] [gap_ms]`: the sandbox port alone (lib/ports/sandbox), what an
 * invoke's run costs without HTTP or the database. One trivial run at a time, `gap_ms` (default 3,
 * about the rest of an invoke's work) between the answer and the next submit, as the one-at-a-time
 * invoke loop of bench/functions.ts leaves it. Prints the p50 and p99 from submit to answer and the
 * process's CPU per run (process.cpuUsage counts every thread: the main thread and the pool's workers).
 */
import { performance } from "node:perf_hooks";
import { createSandbox } from "@/lib/ports/sandbox";
import type { HostBridge } from "@/lib/ports/sandbox/types";
import { percentile } from "./stats";

const runs = Number(process.argv[2] ?? 2000);
const gapMs = Number(process.argv[3] ?? 3);
const code = "export default async (event) => ({ ok: true, n: event.arguments.n ?? 0 });";
const bridge: HostBridge = {
  fetch: () => Promise.reject(new Error("no fetch here")),
  kv: {
    get: async () => null,
    put: async () => {},
    delete: async () => {},
    list: async () => ({ keys: [], list_complete: true, cursor: null }),
  },
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const sandbox = createSandbox();
const request = (n: number) => ({
  code,
  runtime: "PLAIN" as const,
  event: { type: "invoke", arguments: { n }, contact: null },
  env: { TOKEN: "secret" },
  context: { function_id: "fn_x", function_slug: "x", invocation_id: `fninv_${n}`, project_id: "prj_x", event_type: "invoke" },
});
for (let i = 0; i < 200; i++) await sandbox.run(request(i), bridge);

const times: number[] = [];
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
let busyMs = 0;
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  const outcome = await sandbox.run(request(i), bridge);
  const took = performance.now() - t;
  busyMs += took;
  if (outcome.status !== "ok") throw new Error(`run ${i}: ${outcome.error}`);
  times.push(took);
  if (gapMs > 0) await sleep(gapMs);
}
const cpu = process.cpuUsage(cpuBefore);
const wall = performance.now() - wallBefore;
times.sort((a, b) => a - b);
console.log(
  `${runs} runs, ${gapMs} ms apart: submit → answer p50 ${percentile(times, 50)?.toFixed(3)} ms, p99 ${percentile(times, 99)?.toFixed(3)} ms; ` +
    `CPU per run ${((cpu.user + cpu.system) / 1000 / runs).toFixed(3)} ms (all threads), wall ${(wall / runs).toFixed(2)} ms per run, ${(busyMs / runs).toFixed(3)} ms of it awaiting the run`,
);
await sandbox.close();
