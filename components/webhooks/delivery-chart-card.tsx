"use client";

import { useId } from "react";
import { Card, CardBody, CardHeader, ErrorState, Skeleton, SkeletonGroup, cn } from "@/components/ui";
import { useDeliveryStats } from "@/lib/client/webhooks";
import { formatCount, formatPercent, windowPhrase } from "./format";
import { StackedBarChart } from "./stacked-bar-chart";

const STATS_RANGES = [
  { value: "24h", hours: 24, label: "24 hours" },
  { value: "7d", hours: 168, label: "7 days" },
] as const;
export type StatsRange = (typeof STATS_RANGES)[number]["value"];

function RangeToggle({ value, onChange }: { value: StatsRange; onChange: (value: StatsRange) => void }) {
  return (
    <div role="group" aria-label="Time range" className="inline-flex rounded-md bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset">
      {STATS_RANGES.map((range) => {
        const selected = range.value === value;
        return (
          <button
            key={range.value}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(range.value)}
            className={cn(
              "h-7 rounded-[5px] px-2.5 text-[13px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600",
              selected ? "bg-white text-slate-900 shadow-xs ring-1 ring-slate-200" : "text-slate-600 hover:text-slate-900",
            )}
          >
            {range.label}
          </button>
        );
      })}
    </div>
  );
}

function Stat({ label, value, tone }: { label: string; value: string; tone?: "success" | "danger" }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-1.5 text-xs text-slate-500">
        {tone && <span aria-hidden="true" className={cn("size-2 rounded-xs", tone === "success" ? "bg-emerald-500" : "bg-red-500")} />}
        {label}
      </dt>
      <dd className="mt-0.5 text-lg font-semibold tracking-tight text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

/** Delivery success over time: totals, a sentence for screen readers (and everyone), and the hourly chart. */
export function DeliveryChartCard({ projectId, range, onRangeChange }: { projectId: string; range: StatsRange; onRangeChange: (range: StatsRange) => void }) {
  const hours = STATS_RANGES.find((r) => r.value === range)?.hours ?? 24;
  const stats = useDeliveryStats(projectId, hours);
  const summaryId = useId();

  let body;
  if (stats.isPending) {
    body = (
      <SkeletonGroup label="Loading delivery stats">
        <div className="flex gap-10">
          <Skeleton className="h-10 w-20" />
          <Skeleton className="h-10 w-20" />
          <Skeleton className="h-10 w-20" />
        </div>
        <Skeleton className="mt-5 h-44 w-full" />
      </SkeletonGroup>
    );
  } else if (stats.isError) {
    body = <ErrorState compact error={stats.error} onRetry={() => void stats.refetch()} retrying={stats.isFetching} />;
  } else {
    const { totals, buckets } = stats.data;
    const attempts = totals.succeeded + totals.failed;
    const summary =
      attempts === 0
        ? `No delivery attempts ${windowPhrase(stats.data.hours)}.`
        : `${formatPercent(totals.success_rate ?? 0)} of ${formatCount(attempts)} ${attempts === 1 ? "attempt" : "attempts"} succeeded ${windowPhrase(stats.data.hours)}.`;
    body = (
      <>
        <dl className="grid grid-cols-3 gap-4 sm:flex sm:gap-12">
          <Stat label="Success rate" value={totals.success_rate === null ? "—" : formatPercent(totals.success_rate)} />
          <Stat label="Succeeded" value={formatCount(totals.succeeded)} tone="success" />
          <Stat label="Failed" value={formatCount(totals.failed)} tone="danger" />
        </dl>
        <p id={summaryId} className="mt-3 text-[13px] text-slate-600" data-testid="delivery-summary">
          {summary}
        </p>
        <StackedBarChart
          className={cn("mt-4 transition-opacity", stats.isPlaceholderData && "opacity-60")}
          buckets={buckets}
          label={`Delivery attempts per hour ${windowPhrase(stats.data.hours)}, succeeded and failed`}
          describedBy={summaryId}
        />
      </>
    );
  }

  return (
    <Card>
      <CardHeader
        title="Delivery success"
        description="Every attempt to reach your endpoint, per hour. A 2xx answer counts as succeeded."
        actions={<RangeToggle value={range} onChange={onRangeChange} />}
      />
      <CardBody>{body}</CardBody>
    </Card>
  );
}
