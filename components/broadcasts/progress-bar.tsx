import { cn } from "@/components/ui";
import type { BroadcastStats } from "@/lib/client/broadcasts";
import { progressOf, type Progress } from "./model/vocabulary";

const SEGMENT_COLORS: Record<Progress["segments"][number]["key"], string> = {
  delivered: "bg-emerald-500",
  sent: "bg-indigo-500",
  queued: "bg-indigo-200",
  failed: "bg-red-500",
  skipped: "bg-amber-400",
};

/**
 * How far the broadcast got: one bar of stacked segments (delivered, sent, queued, failed, skipped),
 * exposed as a progressbar whose value is the processed count, so assistive tech and the e2e spec read
 * the same number the operator sees.
 */
export function BroadcastProgressBar({ stats, size = "md", label = "Broadcast progress" }: { stats: BroadcastStats; size?: "sm" | "md"; label?: string }) {
  const progress = progressOf(stats);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={progress.total}
      aria-valuenow={progress.processed}
      aria-valuetext={`${progress.processed} of ${progress.total} processed, ${progress.delivered} delivered`}
      className={cn("flex w-full overflow-hidden rounded-full bg-slate-100", size === "sm" ? "h-1.5" : "h-3")}
    >
      {progress.total > 0 &&
        progress.segments.map((segment) =>
          segment.count > 0 ? (
            <div
              key={segment.key}
              data-segment={segment.key}
              className={cn("h-full transition-[width] duration-500", SEGMENT_COLORS[segment.key])}
              style={{ width: `${(segment.count / progress.total) * 100}%` }}
            />
          ) : null,
        )}
    </div>
  );
}
