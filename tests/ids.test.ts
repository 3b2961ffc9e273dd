import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import { ID_PREFIXES, isIdOf, newId, restartIdSequence } from "@/lib/ids";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

describe("newId", () => {
  it("is <prefix>_<lower-case ulid> and recognised by isIdOf", () => {
    for (const kind of Object.keys(ID_PREFIXES) as (keyof typeof ID_PREFIXES)[]) {
      const id = newId(kind);
      expect(id.startsWith(`${ID_PREFIXES[kind]}_`)).toBe(true);
      expect(isIdOf(kind, id)).toBe(true);
    }
  });

  it("sorts by creation time, and within one millisecond by order of creation", () => {
    const at = Date.now();
    const sameMs = Array.from({ length: 50 }, () => newId("message", at));
    expect([...sameMs].sort()).toEqual(sameMs);
    expect(new Set(sameMs).size).toBe(50);
    const later = newId("message", at + 1);
    expect(later > sameMs.at(-1)!).toBe(true);
  });

  it("after a clock that ran ahead, ids keep the order they were made in until the sequence restarts (a new process, or a new test file)", () => {
    const now = Date.now();
    const ahead = newId("event", now + 86_400_000);
    const later = newId("event", now);
    expect(later > ahead).toBe(true);
    expect(decodeTime(later.slice("evt_".length).toUpperCase())).toBe(now + 86_400_000);
    restartIdSequence();
    const fresh = newId("event", now);
    expect(decodeTime(fresh.slice("evt_".length).toUpperCase())).toBe(now);
  });

  it("draws the random part from the whole alphabet, well spread (pooled bytes refilled past 4 KiB)", () => {
    // 6,000 ids at distinct times, later than any other in this file: each takes 16 fresh random
    // characters (96,000 draws, many pool refills). An id at or before the last time used is an increment
    // of the previous one instead, so this test stays last.
    const start = Date.now() + 60_000;
    const counts = new Map<string, number>();
    const randomParts = new Set<string>();
    for (let i = 0; i < 6000; i++) {
      const random = newId("event", start + i).slice("evt_".length + 10);
      randomParts.add(random);
      for (const char of random) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(randomParts.size).toBe(6000);
    expect([...counts.keys()].sort().join("")).toBe(CROCKFORD);
    // Expected 3,000 per character; a fair source stays far inside ±20 %.
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(2400);
      expect(n).toBeLessThan(3600);
    }
  });
});
