/** Small statistics helpers for the benchmark (nearest-rank percentiles over recorded samples). */

export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? null;
}

export interface LatencySummary {
  count: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? null };
}

/** Throughput of a stream of arrival times (ms): arrivals per second between the first and the last. */
export function arrivalRate(times: readonly number[]): number | null {
  if (times.length < 2) return null;
  const sorted = [...times].sort((a, b) => a - b);
  const span = (sorted.at(-1)! - sorted[0]!) / 1000;
  return span > 0 ? (sorted.length - 1) / span : null;
}

export function round(value: number | null, digits = 1): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
