import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { SHARED_CPU_USED, SHARED_EXECUTING_SINCE, SHARED_SLICE_CPU_START, SHARED_SLOTS, SHARED_THREAD_ID } from "@/lib/ports/sandbox/protocol";
import { threadCpuMs } from "@/lib/ports/sandbox/thread-cpu";
import { DEFAULT_SANDBOX_LIMITS } from "@/lib/ports/sandbox/types";
import { JobWatchdog } from "@/lib/ports/sandbox/watchdog";

/**
 * A function is held to the CPU it used, not to how busy the host was while it ran: a slice is
 * measured on the worker thread's own CPU clock (Linux's /proc/thread-self/schedstat), both by the
 * worker (worker/thread-clock.mjs) and by the pool's watchdog from outside (thread-cpu.ts). A thread
 * blocked in Atomics.wait uses no CPU, which is what these tests use in place of a descheduled one.
 */

const WORKER_DIR = path.resolve("lib/ports/sandbox/worker");
const moduleUrl = (file: string) => pathToFileURL(path.join(WORKER_DIR, file)).href;

interface ThreadClock {
  tid: number;
  readMs: () => number;
}
interface ClockModule {
  CpuClock: new (
    shared: Float64Array,
    thread: ThreadClock | null,
  ) => {
    measure<T>(slice: () => T): T;
    exceeds(limitMs: number): boolean;
    readonly usedMs: number;
  };
}

/** A worker thread that spends `busyMs` of its own CPU, says so, then blocks until released. */
const BUSY_THEN_WAIT = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.clockUrl).then(({ threadClock }) => {
  const clock = threadClock();
  const start = clock.readMs();
  while (clock.readMs() - start < workerData.busyMs) {}
  const busy = clock.readMs();
  parentPort.postMessage({ tid: clock.tid, start, busy });
  const flag = new Int32Array(workerData.flag);
  Atomics.wait(flag, 0, 0, 10000);
  parentPort.postMessage({ end: clock.readMs() });
});
`;

interface Busy {
  tid: number;
  start: number;
  busy: number;
}

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

function busyThenWait(busyMs: number) {
  const flag = new SharedArrayBuffer(4);
  const worker = new Worker(BUSY_THEN_WAIT, { eval: true, workerData: { clockUrl: moduleUrl("thread-clock.mjs"), busyMs, flag } });
  workers.push(worker);
  const messages: unknown[] = [];
  const waiters: ((message: unknown) => void)[] = [];
  worker.on("message", (message) => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else messages.push(message);
  });
  const next = <T>() => new Promise<T>((resolve) => (messages.length > 0 ? resolve(messages.shift() as T) : waiters.push(resolve as (m: unknown) => void)));
  const release = () => {
    const cell = new Int32Array(flag);
    Atomics.store(cell, 0, 1);
    Atomics.notify(cell, 0);
  };
  return { next, release };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform !== "linux")("the worker thread's CPU clock", () => {
  it("counts the thread's computing and not its waiting, read from inside and from the pool alike", async () => {
    const thread = busyThenWait(50);
    const { tid, start, busy } = await thread.next<Busy>();
    expect(busy - start).toBeGreaterThanOrEqual(50);
    const waitedFrom = performance.now();
    await sleep(300);
    const fromPool = threadCpuMs(tid);
    thread.release();
    const { end } = await thread.next<{ end: number }>();
    expect(performance.now() - waitedFrom).toBeGreaterThanOrEqual(300);
    // Three hundred ms blocked cost the thread almost nothing (the wake-up and the postMessage).
    expect(end - busy).toBeLessThan(30);
    expect(fromPool).not.toBeNull();
    expect(fromPool!).toBeGreaterThanOrEqual(busy);
    expect(fromPool!).toBeLessThanOrEqual(end);
  });

  it("lets the pool's watchdog see that a slice's worker waited instead of computing", async () => {
    const thread = busyThenWait(20);
    const { tid, busy } = await thread.next<Busy>();
    const shared = new Float64Array(new SharedArrayBuffer(SHARED_SLOTS * Float64Array.BYTES_PER_ELEMENT));
    // A slice that started a second ago, at the CPU reading `busy`; the thread has waited since.
    shared[SHARED_CPU_USED] = 100;
    shared[SHARED_EXECUTING_SINCE] = performance.timeOrigin + performance.now() - 1_000;
    shared[SHARED_SLICE_CPU_START] = busy;
    shared[SHARED_THREAD_ID] = tid;
    const watchdog = new JobWatchdog(shared, DEFAULT_SANDBOX_LIMITS, () => {});
    const used = watchdog.cpuUsedMs();
    expect(used).toBeGreaterThanOrEqual(100);
    expect(used).toBeLessThan(130);
    // Without the thread's clock, the same slice counts as the second it has lasted.
    shared[SHARED_THREAD_ID] = 0;
    expect(watchdog.cpuUsedMs()).toBeGreaterThanOrEqual(1_100);
    thread.release();
  });
});

describe("the run's CPU clock (worker/cpu-clock.mjs)", () => {
  /** A thread clock the test moves by hand, counting how often it is read. */
  function handClock() {
    const clock = { ms: 0, reads: 0, tid: 42, readMs: () => (clock.reads++, clock.ms) };
    return clock;
  }
  const spin = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it("charges a slice the thread clock's time, whatever time elapsed", async () => {
    const { CpuClock } = (await import(/* @vite-ignore */ moduleUrl("cpu-clock.mjs"))) as ClockModule;
    const thread = handClock();
    const shared = new Float64Array(SHARED_SLOTS);
    const clock = new CpuClock(shared, thread);
    expect(shared[SHARED_THREAD_ID]).toBe(42);
    clock.measure(() => {
      thread.ms += 7;
      spin(20);
    });
    expect(clock.usedMs).toBe(7);
    expect(shared[SHARED_CPU_USED]).toBe(7);
    expect(shared[SHARED_EXECUTING_SINCE]).toBe(0);
  });

  it("reads the thread clock in the interrupt check only once elapsed time could have passed the limit", async () => {
    const { CpuClock } = (await import(/* @vite-ignore */ moduleUrl("cpu-clock.mjs"))) as ClockModule;
    const thread = handClock();
    const clock = new CpuClock(new Float64Array(SHARED_SLOTS), thread);
    const answers = clock.measure(() => {
      const readsAtStart = thread.reads;
      const early = [clock.exceeds(30), clock.exceeds(30)];
      const readsEarly = thread.reads - readsAtStart;
      spin(35); // elapsed is past the limit; the thread (as the hand clock says) used 5 ms of it
      thread.ms = 5;
      const past = clock.exceeds(30);
      const readsPast = thread.reads - readsAtStart;
      const again = clock.exceeds(30); // another 25 ms must elapse before the limit can be reached
      const readsAgain = thread.reads - readsAtStart;
      spin(30);
      thread.ms = 31;
      const over = clock.exceeds(30);
      return { early, readsEarly, past, readsPast, again, readsAgain, over };
    });
    expect(answers).toEqual({ early: [false, false], readsEarly: 0, past: false, readsPast: 1, again: false, readsAgain: 1, over: true });
  });

  it("measures elapsed time where the thread has no clock", async () => {
    const { CpuClock } = (await import(/* @vite-ignore */ moduleUrl("cpu-clock.mjs"))) as ClockModule;
    const shared = new Float64Array(SHARED_SLOTS);
    const clock = new CpuClock(shared, null);
    clock.measure(() => spin(20));
    expect(shared[SHARED_THREAD_ID]).toBe(0);
    expect(clock.usedMs).toBeGreaterThanOrEqual(20);
    expect(clock.exceeds(10)).toBe(true);
  });
});
