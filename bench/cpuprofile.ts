/**
 * `npx tsx bench/cpuprofile.ts <file.cpuprofile> [top]`: where a V8 CPU profile (node --cpu-prof, as
 * written by BENCH_CPU_PROF=1) spends its time: self time by function and by file, and inclusive
 * (total) time of the heaviest functions. Idle and GC are shown as such. Frames in the production
 * build's minified chunks (.next/) are named through the chunk's source map, so they read as
 * `lib/...ts:line` or `node_modules/<package>/...` instead of `(anonymous) .next/server/chunks/_0gd4.js`.
 */
import { existsSync, readFileSync } from "node:fs";
import { FlattenMap, originalPositionFor, type TraceMap } from "@jridgewell/trace-mapping";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) return url.slice(nm + "node_modules/".length);
  const next = url.indexOf("/.next/");
  if (next >= 0) return url.slice(next + 1);
  return url.replace(/^file:\/\//, "").replace(/^.*\/main\//, "") || "(native)";
}

const sourceMaps = new Map<string, TraceMap | null>();

/** The original file, line and name of a frame in a bundled chunk that has a source map beside it; null otherwise. */
function original(frame: CallFrame): { url: string; line: number; name: string } | null {
  const file = frame.url.replace(/^file:\/\//, "");
  if (!file.includes("/.next/")) return null;
  let map = sourceMaps.get(file);
  if (map === undefined) {
    // Turbopack writes index maps (sections per module): FlattenMap reads both kinds.
    map = existsSync(`${file}.map`) ? new FlattenMap(readFileSync(`${file}.map`, "utf8")) : null;
    sourceMaps.set(file, map);
  }
  if (!map) return null;
  const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  if (!position.source) return null;
  // turbopack:///[project]/lib/x.ts, or ../../../node_modules/pkg/x.js relative to the chunk
  const source = position.source.replace(/^turbopack:\/\/\/\[project\]\//, "").replace(/^(\.\.\/)+/, "");
  return { url: source, line: position.line ?? 0, name: position.name ?? frame.functionName };
}

/** `window`: only samples between these seconds after the profile started (the process's start). */
export function analyse(file: string, top = 25, window: [number, number] | null = null): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const since = (at - profile.startTime) / 1e6;
    if (window && (since < window[0] || since > window[1])) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const labels = new Map<CallFrame, { fn: string; file: string }>();
  const labelOf = (f: CallFrame) => {
    let found = labels.get(f);
    if (!found) {
      const mapped = original(f);
      const file = mapped ? shortUrl(mapped.url) : f.url ? shortUrl(f.url) : f.functionName;
      found = { fn: `${(mapped ? mapped.name : f.functionName) || "(anonymous)"} ${file}:${mapped ? mapped.line : f.lineNumber + 1}`, file };
      labels.set(f, found);
    }
    return found;
  };
  const label = (f: CallFrame) => labelOf(f).fn;

  const selfByFn = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    selfByFn.set(label(node.callFrame), (selfByFn.get(label(node.callFrame)) ?? 0) + us);
    const fileKey = labelOf(node.callFrame).file;
    selfByFile.set(fileKey, (selfByFile.get(fileKey) ?? 0) + us);
    // Inclusive: count each function once per stack (recursion-safe).
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = label(byId.get(cur)!.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  const list = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`)
      .join("\n");
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s sampled${window ? ` between ${window[0]} s and ${window[1]} s` : ""}`,
    `self time by function:\n${list(selfByFn, top)}`,
    `self time by file:\n${list(selfByFile, top)}`,
    `total (inclusive) time by function:\n${list(inclusive, top)}`,
  ].join("\n\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top, from, to] = process.argv.slice(2);
  if (!file) {
    console.error(
      "usage: npx tsx bench/cpuprofile.ts <file.cpuprofile> [top] [from_s to_s]\n(from/to: seconds since the process started; the results file's phases give them)",
    );
    process.exitCode = 2;
  } else {
    console.log(analyse(file, top ? Number(top) : 25, from !== undefined && to !== undefined ? [Number(from), Number(to)] : null));
  }
}
