/**
 * Benchmark set-up helper, not a measurement: runs due jobs through the product's own JobQueue.drain
 * (the loop the tests' settle() uses) in `lanes` parallel loops, so thousands of sandbox joins are
 * ingested quickly whatever the worker's polling does. It builds the same runtime as the web and
 * worker processes (same handlers, same database) with SVC_WORKER=off, and stops on SIGTERM or after
 * `seconds`. Prints how many jobs it ran.
 *
 *   node --import tsx bench/drain-jobs.ts <lanes> <seconds>
 */
export {};

process.env.SVC_WORKER = "off";
const { getRuntime } = await import("@/lib/server/runtime");

const lanes = Math.max(1, Math.min(8, Number(process.argv[2] ?? 4)));
const seconds = Math.max(1, Math.min(600, Number(process.argv[3] ?? 120)));
const deadline = Date.now() + seconds * 1000;
let stopping = false;
let ran = 0;
process.on("SIGTERM", () => (stopping = true));
process.on("SIGINT", () => (stopping = true));

const runtime = await getRuntime();
console.log("drain-jobs: ready");
async function lane(): Promise<void> {
  while (!stopping && Date.now() < deadline) {
    const n = await runtime.ports.queue.drain({ maxJobs: 50 });
    ran += n;
    if (n === 0) await new Promise((r) => setTimeout(r, 50));
  }
}
await Promise.all(Array.from({ length: lanes }, () => lane()));
console.log(`drain-jobs: ran ${ran} jobs`);
await runtime.close();
process.exit(0);
