import type { ReactNode } from "react";
import { cn } from "./cn";

/** A grey placeholder block; size it with classes (`h-4 w-40`). Hidden from screen readers. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-slate-200/70 motion-reduce:animate-none", className)} />;
}

/**
 * Wraps skeletons so assistive tech hears one "Loading …" instead of nothing. Use it as the loading
 * state of every query-backed view: `<SkeletonGroup label="Loading keys"><SkeletonRows /></SkeletonGroup>`.
 */
export function SkeletonGroup({ label = "Loading", className, children }: { label?: string; className?: string; children: ReactNode }) {
  return (
    <div role="status" aria-busy="true" className={className}>
      <span className="sr-only">{label}…</span>
      {children}
    </div>
  );
}

/** Paragraph-shaped placeholder. */
export function SkeletonText({ lines = 3, className }: { lines?: number; className?: string }) {
  return (
    <div className={cn("space-y-2", className)} aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <Skeleton key={index} className={cn("h-3.5", index === lines - 1 ? "w-2/3" : "w-full")} />
      ))}
    </div>
  );
}

/** List/table-shaped placeholder: rows of a few cells in a card. */
export function SkeletonRows({ rows = 5, columns = 4, className }: { rows?: number; columns?: number; className?: string }) {
  const widths = ["w-2/5", "w-1/4", "w-1/6", "w-1/5", "w-1/3"];
  return (
    <div aria-hidden="true" className={cn("divide-y divide-slate-100 rounded-lg bg-white ring-1 ring-slate-200", className)}>
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="flex items-center gap-6 px-4 py-3.5">
          {Array.from({ length: columns }, (_, column) => (
            <Skeleton key={column} className={cn("h-3.5", column === 0 ? "w-1/3" : widths[(row + column) % widths.length])} />
          ))}
        </div>
      ))}
    </div>
  );
}
