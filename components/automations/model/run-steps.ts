import type { BadgeTone } from "@/components/ui/badge";
import type { AutomationRunStep } from "@/lib/client/automations-runs";

/**
 * A run's steps in words (issue 34, "Runs"): each recorded step's outcome and how long it took, and
 * what a variable changed into after it. Pure, so the page and its tests read the same text.
 */

const STEP_STATUS_COPY: Record<string, { label: string; tone: BadgeTone }> = {
  RUNNING: { label: "Running", tone: "info" },
  WAITING: { label: "Waiting", tone: "accent" },
  COMPLETED: { label: "Done", tone: "success" },
  FAILED: { label: "Failed", tone: "danger" },
  CANCELLED: { label: "Cancelled", tone: "neutral" },
  TIMED_OUT: { label: "Timed out", tone: "warning" },
  SKIPPED: { label: "Skipped", tone: "neutral" },
};

export function stepStatusCopy(status: string): { label: string; tone: BadgeTone } {
  return STEP_STATUS_COPY[status.toUpperCase()] ?? { label: status.toLowerCase().replace(/_/g, " "), tone: "neutral" };
}

/** "85 ms", "1.2 s", "4 min 10 s", "2 h 5 min"; null (still going) is "—". */
export function durationLabel(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) {
    const seconds = Math.round((ms % 60_000) / 1000);
    return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

export interface VariableChange {
  name: string;
  value: unknown;
  /** New after this step, or changed by it (false: carried over from before). */
  changed: boolean;
}

/** The variables after a step, each marked when this step set or changed it (compared with the step before). */
export function variableChanges(after: Record<string, unknown> | null, before: Record<string, unknown> | null): VariableChange[] {
  if (!after) return [];
  return Object.entries(after).map(([name, value]) => ({
    name,
    value,
    changed: !before || !(name in before) || JSON.stringify(before[name]) !== JSON.stringify(value),
  }));
}

/** The steps in order, each with the variables of the step before (to show what it changed). */
export function stepsWithBefore(steps: readonly AutomationRunStep[]): Array<{ step: AutomationRunStep; before: Record<string, unknown> | null }> {
  const sorted = [...steps].sort((a, b) => a.index - b.index || Date.parse(a.started_at) - Date.parse(b.started_at));
  return sorted.map((step, i) => ({ step, before: i === 0 ? {} : (sorted[i - 1]!.variables_after ?? null) }));
}
