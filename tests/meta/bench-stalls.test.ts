import { describe, expect, it } from "vitest";
import { Registry, collectDefaultMetrics } from "prom-client";
import { describePauses, parseWebMetrics, pausesBetween } from "../../bench/web-pauses";
import { watchOwnStalls } from "../../bench/own-stalls";

/**
 * The bench reads the web's pauses over a phase out of two scrapes of its /metrics (bench/web-pauses.ts).
 * Here the scrapes are of a real prom-client registry with the web's default series and prefix
 * (lib/ports/metrics), around real collections in this process.
 */
describe("the web's pauses between two scrapes", () => {
  it("finds the collections made between the scrapes", async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: "svc_" });
    const before = parseWebMetrics(await registry.metrics());
    // Garbage enough for a few young-generation collections, reported by the GC observer on later ticks.
    let kept = 0;
    for (let i = 0; i < 200; i++) kept += new Array(50_000).fill(i).length;
    expect(kept).toBe(10_000_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = parseWebMetrics(await registry.metrics());
    const pauses = pausesBetween(before, after);
    expect(pauses.gc.minor?.count).toBeGreaterThan(0);
    expect(pauses.gc.minor!.totalMs).toBeGreaterThan(0);
    expect(describePauses(pauses)).toMatch(/^GC .*minor \d+ \(\d+ ms/);
  });

  it("counts pauses of 100 ms or more from the histogram's buckets, and leaves out kinds that did not run", () => {
    const scrape = (count: number, sum: number, under: number) =>
      [
        "# HELP svc_nodejs_gc_duration_seconds Garbage collection duration by kind.",
        `svc_nodejs_gc_duration_seconds_bucket{le="0.01",kind="major"} 0`,
        `svc_nodejs_gc_duration_seconds_bucket{le="0.1",kind="major"} ${under}`,
        `svc_nodejs_gc_duration_seconds_bucket{le="+Inf",kind="major"} ${count}`,
        `svc_nodejs_gc_duration_seconds_sum{kind="major"} ${sum}`,
        `svc_nodejs_gc_duration_seconds_count{kind="major"} ${count}`,
        `svc_nodejs_gc_duration_seconds_count{kind="incremental"} 4`,
        `svc_nodejs_gc_duration_seconds_sum{kind="incremental"} 0.01`,
      ].join("\n");
    const pauses = pausesBetween(parseWebMetrics(scrape(2, 0.05, 2)), parseWebMetrics(scrape(5, 0.45, 3)));
    expect(pauses).toEqual({ gc: { major: { count: 3, totalMs: 400, atLeast100Ms: 2 } } });
  });
});

/** The load generator's own stalls (bench/own-stalls.ts): a run's tail may be the bench process's, not the app's. */
describe("the bench process's own stalls", () => {
  it("reports a block of its event loop, and when it began", async () => {
    const stop = watchOwnStalls();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const until = Date.now() + 150;
    while (Date.now() < until) {
      /* holds the event loop, as a long collection of the bench's own would */
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const stalls = stop();
    expect(stalls.timerLateMaxMs).toBeGreaterThanOrEqual(100);
    expect(stalls.timerLateAtMs).toBeGreaterThanOrEqual(30);
    expect(stalls.timerLateAtMs).toBeLessThan(150);
  });
});
