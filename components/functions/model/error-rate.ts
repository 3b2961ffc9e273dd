import type { BadgeTone } from "@/components/ui";
import type { FunctionStat } from "@/lib/client/functions";

export interface ErrorRate {
  /** "4%" / "0%" / "<1%", or "No runs" for a function that did not run in the last 24 h. */
  label: string;
  /** "3 of 75 runs failed in the last 24 hours", for the title and screen readers. */
  detail: string;
  tone: BadgeTone;
}

/** Errors over runs of the last 24 h: danger from 10 %, warning for any failure below that. */
export function errorRate(stat: FunctionStat | undefined): ErrorRate {
  const runs = stat?.invocations_24h ?? 0;
  const errors = Math.min(stat?.errors_24h ?? 0, runs);
  if (runs === 0) return { label: "No runs", detail: "No runs in the last 24 hours", tone: "neutral" };
  const share = errors / runs;
  const percent = Math.round(share * 100);
  const label = errors > 0 && percent === 0 ? "<1%" : `${percent}%`;
  const detail = `${errors} of ${runs} ${runs === 1 ? "run" : "runs"} failed in the last 24 hours`;
  const tone: BadgeTone = errors === 0 ? "success" : share >= 0.1 ? "danger" : "warning";
  return { label, detail, tone };
}
