import { describe, expect, it } from "vitest";
import { overlapMs } from "../../bench/autovacuum";

/**
 * The bench marks each phase with how long the autovacuum stand-in vacuumed or analyzed inside its
 * window (bench/run.ts phase()), so a row measured beside a vacuum shows it: the overlap of the passes
 * with the window, a pass partly inside counted for its part only.
 */
describe("the stand-in's overlap with a phase", () => {
  const passes = [
    { start: 1_000, end: 3_000 },
    { start: 10_000, end: 10_500 },
  ];

  it("counts the part of each pass inside the window", () => {
    expect(overlapMs(passes, 0, 20_000)).toBe(2_500);
    expect(overlapMs(passes, 2_000, 10_200)).toBe(1_200);
    expect(overlapMs(passes, 1_500, 2_500)).toBe(1_000);
  });

  it("is zero for a window between passes, or touching one only at an end", () => {
    expect(overlapMs(passes, 3_000, 10_000)).toBe(0);
    expect(overlapMs(passes, 4_000, 9_000)).toBe(0);
    expect(overlapMs([], 0, 1_000)).toBe(0);
  });
});
