import { describe, expect, it } from "vitest";
import { tickBatch, writeBehind } from "@/lib/ports/db/tick-batch";
import type { Db } from "@/lib/ports/db/types";

const db = {} as Db;
const other = {} as Db;

interface Row {
  key: string;
  n: number;
}

function counting() {
  const loads: string[][] = [];
  const batch = tickBatch<string, Row>({
    keyOf: (key) => key,
    rowKey: (row) => row.key,
    load: async (_db, keys) => {
      loads.push([...keys]);
      return keys.flatMap((key) => (key === "missing" ? [] : [{ key, n: 1 }, ...(key === "two" ? [{ key, n: 2 }] : [])]));
    },
  });
  return { loads, batch };
}

describe("tickBatch: reads asked in one turn share one statement", () => {
  it("one load for every key asked in the same turn, each caller answered with its own rows", async () => {
    const { loads, batch } = counting();
    const [a, b, missing, two] = await Promise.all([batch(db, "a"), batch(db, "b"), batch(db, "missing"), batch(db, "two")]);
    expect(loads).toEqual([["a", "b", "missing", "two"]]);
    expect(a).toEqual([{ key: "a", n: 1 }]);
    expect(b).toEqual([{ key: "b", n: 1 }]);
    expect(missing).toEqual([]);
    expect(two).toEqual([
      { key: "two", n: 1 },
      { key: "two", n: 2 },
    ]);
  });

  it("a key asked twice is loaded once; later turns and other handles get their own statement", async () => {
    const { loads, batch } = counting();
    const [first, again] = await Promise.all([batch(db, "a"), batch(db, "a"), batch(other, "b")]);
    expect(first).toEqual(again);
    expect(first).not.toBe(again);
    await batch(db, "c");
    expect(loads).toEqual([["a"], ["b"], ["c"]]);
  });

  it("splits a turn bigger than max", async () => {
    const loads: number[] = [];
    const batch = tickBatch<string, Row>({ keyOf: (k) => k, rowKey: (r) => r.key, load: async (_db, keys) => (loads.push(keys.length), []), max: 2 });
    await Promise.all(["a", "b", "c", "d", "e"].map((key) => batch(db, key)));
    expect(loads).toEqual([2, 2, 1]);
  });

  it("a failing statement fails every caller of its batch", async () => {
    const batch = tickBatch<string, Row>({ keyOf: (k) => k, rowKey: (r) => r.key, load: () => Promise.reject(new Error("down")) });
    const results = await Promise.allSettled([batch(db, "a"), batch(db, "b")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});

describe("writeBehind: writes asked while one is written go together", () => {
  it("the first turn's keys in one write, those asked meanwhile in the next; each caller waits for its own", async () => {
    const writes: string[][] = [];
    let release: () => void = () => {};
    const write = writeBehind<string, string>(async (_db, keys) => {
      writes.push([...keys]);
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return keys.map((key) => key.toUpperCase());
    });
    const settled: string[] = [];
    const first = [write(db, "a"), write(db, "b")].map((p) => p.then((result) => settled.push(result)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([["a", "b"]]);
    const later = [write(db, "c"), write(db, "d")].map((p) => p.then((result) => settled.push(result)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([["a", "b"]]);
    expect(settled).toEqual([]);
    release();
    await Promise.all([...first, ...later]);
    expect(writes).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    // Each caller gets its own key's result.
    expect(settled).toEqual(["A", "B", "C", "D"]);
  });

  it("a failed write rejects its callers only; the next write goes on", async () => {
    let calls = 0;
    const write = writeBehind<string>(async (_db, keys) => {
      calls++;
      if (calls === 1) throw new Error("down");
      return keys.map(() => undefined);
    });
    const failed = await Promise.allSettled([write(db, "a"), write(db, "b")]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await expect(write(db, "c")).resolves.toBeUndefined();
  });
});
