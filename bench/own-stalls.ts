/**
 * The load generator's own stalls during a closed-loop run. The bench process shares the two cores
 * with the app: when it stops (its own collection, a long task), requests it has sent are answered
 * but not read, and their latencies grow as if the app had stalled. A run whose tail comes from one
 * moment (the POST row's, README "Performance") records here whether that moment was ours.
 */
import { PerformanceObserver, performance } from "node:perf_hooks";

export interface OwnStalls {
  /** The latest a 10 ms timer fired past its time, and when (ms since the watch began). */
  timerLateMaxMs: number;
  timerLateAtMs: number;
  /** This process's collections during the run: how many, their total and the longest pause. */
  gcCount: number;
  gcTotalMs: number;
  gcMaxMs: number;
}

const TICK_MS = 10;

/** Starts watching; the returned function stops and reports. */
export function watchOwnStalls(): () => OwnStalls {
  const began = performance.now();
  const stalls: OwnStalls = { timerLateMaxMs: 0, timerLateAtMs: 0, gcCount: 0, gcTotalMs: 0, gcMaxMs: 0 };
  let last = began;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    if (late > stalls.timerLateMaxMs) Object.assign(stalls, { timerLateMaxMs: late, timerLateAtMs: last - began });
    last = now;
  }, TICK_MS);
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      stalls.gcCount++;
      stalls.gcTotalMs += entry.duration;
      stalls.gcMaxMs = Math.max(stalls.gcMaxMs, entry.duration);
    }
  });
  gc.observe({ entryTypes: ["gc"] });
  return () => {
    clearInterval(timer);
    gc.disconnect();
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      timerLateMaxMs: round(stalls.timerLateMaxMs),
      timerLateAtMs: Math.round(stalls.timerLateAtMs),
      gcCount: stalls.gcCount,
      gcTotalMs: round(stalls.gcTotalMs),
      gcMaxMs: round(stalls.gcMaxMs),
    };
  };
}
