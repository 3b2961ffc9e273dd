import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "@/lib/ports/sandbox";
import { plain, recordingBridge } from "./support";

/**
 * The worker pool: runs happen off the main thread on worker threads started on demand, queued in
 * order when all are busy, and a worker that had to be killed is replaced.
 */
const sandboxes: Sandbox[] = [];
function sandboxFor(options: Parameters<typeof createSandbox>[0]): Sandbox {
  const sandbox = createSandbox(options);
  sandboxes.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

const TRIVIAL = "export default async function (event) { return event.text; }";
const SPIN = "export default async function () { while (true) {} }";

function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe("the pool", () => {
  it("starts workers only when runs need them", async () => {
    const sandbox = sandboxFor({ poolSize: 3 });
    expect(sandbox.stats()).toEqual({ workersStarted: 0, workersAlive: 0, queued: 0 });
    expect((await sandbox.run(plain(TRIVIAL), recordingBridge())).result).toBe("hi");
    expect(sandbox.stats().workersStarted).toBe(1);
  });

  it("keeps the main thread and the other workers working while a run spins", async () => {
    const sandbox = sandboxFor({ poolSize: 2 });
    // Both workers warm first, so what is measured below is the spin, not a worker start.
    await Promise.all([sandbox.run(plain(TRIVIAL), recordingBridge()), sandbox.run(plain(TRIVIAL), recordingBridge())]);

    let spinEnded = false;
    const spinning = sandbox.run(plain(SPIN, { limits: { cpuMs: 3_000 } }), recordingBridge()).finally(() => {
      spinEnded = true;
    });
    let ticks = 0;
    for (; ticks < 200; ticks++) await nextTick();
    const trivial = await sandbox.run(plain(TRIVIAL, { event: { text: "still served" } }), recordingBridge());

    expect(ticks).toBe(200);
    expect(trivial.result).toBe("still served");
    expect(spinEnded).toBe(false);
    expect((await spinning).error).toMatch(/^cpu_limit_exceeded: /);
  });

  it("gives each run of one worker a runtime no earlier run touched, though it was made before the run came", async () => {
    const sandbox = sandboxFor({ poolSize: 1 });
    const tamper =
      "export default async function () { globalThis.leaked = 'x'; Object.prototype.polluted = 1; Array.prototype.push = null; env.SECRET_SEEN = 1; " +
      "await new Promise((resolve) => setTimeout(resolve, 1)); return 'tampered'; }";
    const look =
      "export default async function () { return [typeof globalThis.leaked, ({}).polluted === undefined, typeof [].push, env.SECRET_SEEN === undefined, typeof setTimeout]; }";
    // A few rounds: each run after the first takes the runtime its worker prepared once the previous one ended.
    for (let round = 0; round < 3; round++) {
      expect((await sandbox.run(plain(tamper), recordingBridge())).result).toBe("tampered");
      expect((await sandbox.run(plain(look), recordingBridge())).result).toEqual(["undefined", true, "function", true, "function"]);
    }
    expect(sandbox.stats().workersStarted).toBe(1);
  });

  it("queues runs in order when every worker is busy", async () => {
    const sandbox = sandboxFor({ poolSize: 1 });
    const finished: string[] = [];
    const slow = "export default async function (event) { await new Promise((resolve) => setTimeout(resolve, 200)); return event.text; }";
    const runs = [plain(slow, { event: { text: "first" } }), plain(TRIVIAL, { event: { text: "second" } }), plain(TRIVIAL, { event: { text: "third" } })].map(
      (request) => sandbox.run(request, recordingBridge()).then((outcome) => void finished.push(String(outcome.result))),
    );
    expect(sandbox.stats().queued).toBe(2);
    await Promise.all(runs);
    expect(finished).toEqual(["first", "second", "third"]);
    expect(sandbox.stats().workersStarted).toBe(1);
  });

  it("stops loops, loops in promise jobs and long waits inside the worker, which stays in service", async () => {
    const sandbox = sandboxFor({ poolSize: 1, limits: { cpuMs: 200, wallMs: 1_000 } });
    const loop = await sandbox.run(plain(SPIN), recordingBridge());
    const loopInJob = await sandbox.run(plain("export default async function () { await Promise.resolve(); await null; for (;;) {} }"), recordingBridge());
    const wait = await sandbox.run(plain("export default async function () { await new Promise((r) => setTimeout(r, 30000)); }"), recordingBridge());
    expect([loop.error, loopInJob.error, wait.error].map((error) => error?.split(":")[0])).toEqual([
      "cpu_limit_exceeded",
      "cpu_limit_exceeded",
      "wall_time_exceeded",
    ]);
    // Ended by the worker's interrupt handler and deadline, not by the pool killing it.
    expect(sandbox.stats().workersStarted).toBe(1);
  });

  it("replaces a worker killed by the wall timer, and the next run succeeds", async () => {
    // A loop inside a built-in never reaches the interrupt handler; with a CPU limit out of reach, only
    // the main thread's wall timer can end it.
    const sandbox = sandboxFor({ poolSize: 1, limits: { cpuMs: 60_000, wallMs: 1_000 } });
    const stuck = await sandbox.run(plain("export default async function () { return new Array(1e9).join('x').length; }"), recordingBridge());
    expect(stuck.status).toBe("error");
    expect(stuck.error).toMatch(/^wall_time_exceeded: /);

    const next = await sandbox.run(plain(TRIVIAL, { event: { text: "after the kill" } }), recordingBridge());
    expect(next.result).toBe("after the kill");
    expect(sandbox.stats().workersStarted).toBe(2);
  });

  it("replaces a worker whose engine failed, after answering the run", async () => {
    const workerPath = path.join(process.cwd(), "tests", "sandbox", "fixtures", "failing-engine-worker.mjs");
    const sandbox = sandboxFor({ poolSize: 1, workerPath });
    const failing = await sandbox.run(plain("// BREAK_ENGINE\nexport default async function () { return 'answered'; }"), recordingBridge());
    expect(failing.result).toBe("answered");
    const next = await sandbox.run(plain(TRIVIAL, { event: { text: "new worker" } }), recordingBridge());
    expect(next.result).toBe("new worker");
    expect(sandbox.stats().workersStarted).toBe(2);
  });

  it("keeps what a killed run logged before it got stuck", async () => {
    const sandbox = sandboxFor({ poolSize: 1, limits: { cpuMs: 200 } });
    const outcome = await sandbox.run(plain("export default async function () { console.log('before'); return new Array(1e9).join('x'); }"), recordingBridge());
    expect(outcome.error).toMatch(/^cpu_limit_exceeded: /);
    expect(outcome.logs.map((line) => line.message)).toEqual(["before"]);
  });

  it("reports a worker file that cannot start as an error of the call, naming the path", async () => {
    const missing = path.join(process.cwd(), "lib", "ports", "sandbox", "worker", "missing-worker.mjs");
    const sandbox = sandboxFor({ poolSize: 1, workerPath: missing });
    await expect(sandbox.run(plain(TRIVIAL), recordingBridge())).rejects.toThrow(/missing-worker\.mjs.*failed to start/);
  });

  it("rejects what is still running or queued when closed", async () => {
    const sandbox = createSandbox({ poolSize: 1 });
    const running = sandbox.run(plain("export default async function () { await new Promise((r) => setTimeout(r, 5000)); }"), recordingBridge());
    const queued = sandbox.run(plain(TRIVIAL), recordingBridge());
    const refusals = [expect(running).rejects.toThrow(/closed/), expect(queued).rejects.toThrow(/closed/)];
    await sandbox.close();
    await Promise.all(refusals);
    await expect(sandbox.run(plain(TRIVIAL), recordingBridge())).rejects.toThrow(/closed/);
  });
});
