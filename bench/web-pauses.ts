/**
 * The web process's garbage-collection pauses during a closed-loop phase, by kind, from its GET
 * /metrics (prom-client's default series, which the web keeps anyway). A phase whose p99 comes from
 * one moment when every request in flight answered late (the POST row's tail, README "Performance")
 * then says whether a collection of 100 ms or more happened in it. Scraped right before and right
 * after the measured run, never during it. (prom-client's event-loop delay max is not used: on Node
 * 20 monitorEventLoopDelay did not record a 150 ms synchronous block in a test, so it cannot say
 * there was none.)
 */
import { send } from "./load";

export interface GcKindPauses {
  count: number;
  totalMs: number;
  /** Pauses of 100 ms or more (the histogram's 0.1 s bucket edge). */
  atLeast100Ms: number;
}

export interface WebPauses {
  gc: Record<string, GcKindPauses>;
}

interface GcSeries {
  count: number;
  sum: number;
  /** Cumulative count at le="0.1". */
  under100Ms: number;
}

/** Metric name, labels and value of one sample line of the Prometheus text format. */
const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})?\s+(\S+)/;

function labelsOf(raw: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const m of (raw ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!;
  return labels;
}

/** The GC histogram per kind, out of a scrape's text. */
export function parseWebMetrics(text: string): { gc: Map<string, GcSeries> } {
  const gc = new Map<string, GcSeries>();
  const seriesOf = (kind: string) => gc.get(kind) ?? gc.set(kind, { count: 0, sum: 0, under100Ms: 0 }).get(kind)!;
  for (const line of text.split("\n")) {
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const [, name, rawLabels, rawValue] = m;
    const value = Number(rawValue);
    if (!name!.startsWith("svc_nodejs_gc_duration_seconds_")) continue;
    const labels = labelsOf(rawLabels);
    if (!labels.kind) continue;
    const series = seriesOf(labels.kind);
    if (name === "svc_nodejs_gc_duration_seconds_count") series.count = value;
    else if (name === "svc_nodejs_gc_duration_seconds_sum") series.sum = value;
    else if (name === "svc_nodejs_gc_duration_seconds_bucket" && labels.le === "0.1") series.under100Ms = value;
  }
  return { gc };
}

/** What happened between two scrapes: the histogram's differences, per kind that ran. */
export function pausesBetween(before: ReturnType<typeof parseWebMetrics>, after: ReturnType<typeof parseWebMetrics>): WebPauses {
  const gc: Record<string, GcKindPauses> = {};
  for (const [kind, late] of after.gc) {
    const early = before.gc.get(kind) ?? { count: 0, sum: 0, under100Ms: 0 };
    const count = late.count - early.count;
    if (count <= 0) continue;
    gc[kind] = {
      count,
      totalMs: Math.round((late.sum - early.sum) * 10_000) / 10,
      atLeast100Ms: count - (late.under100Ms - early.under100Ms),
    };
  }
  return { gc };
}

/** One scrape of the web's /metrics (null when it does not answer: the phase is still measured). */
export async function scrapeWeb(base: string, token: string) {
  const r = await send(undefined, { method: "GET", url: `${base}/metrics`, headers: { authorization: `Bearer ${token}` }, timeoutMs: 10_000 }).catch(
    () => null,
  );
  return r && r.status === 200 ? parseWebMetrics(r.body) : null;
}

/** "GC major 1 (38 ms), minor 80 (410 ms), incremental 12 (40 ms)", for the phase's log line. */
export function describePauses(p: WebPauses): string {
  const kinds = Object.entries(p.gc)
    .filter(([kind]) => kind !== "weakcb")
    .map(([kind, g]) => `${kind} ${g.count} (${Math.round(g.totalMs)} ms${g.atLeast100Ms ? `, ${g.atLeast100Ms} of 100 ms or more` : ""})`);
  return `GC ${kinds.join(", ") || "none"}`;
}
