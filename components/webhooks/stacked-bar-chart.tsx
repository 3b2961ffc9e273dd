"use client";

import { useId, useState, type KeyboardEvent } from "react";
import { cn } from "@/components/ui";
import type { DeliveryStatsBucket } from "@/lib/client/webhooks";
import { formatCount, formatDuration } from "./format";
import { useElementWidth } from "./use-element-width";

const HEIGHT = 184;
const MARGIN = { top: 10, right: 4, bottom: 26, left: 34 };
const HOUR_MS = 3600_000;

/** The smallest 1/2/5 × 10^k at or above `value`, so the y axis reads in round numbers. */
function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function yTicks(max: number): number[] {
  if (max <= 1) return [0, max];
  return max % 2 === 0 ? [0, max / 2, max] : [0, max];
}

const hourFormat = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hour12: false });
const dayFormat = new Intl.DateTimeFormat("en", { weekday: "short", day: "numeric" });
const longFormat = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });

/** Which buckets get an x-axis label: every 6 hours on a day's chart, each local midnight on a week's. */
function isLabelled(start: Date, spanHours: number): boolean {
  if (start.getMinutes() !== 0) return false;
  return spanHours <= 48 ? start.getHours() % 6 === 0 : start.getHours() === 0;
}

function bucketLabel(bucket: DeliveryStatsBucket): string {
  const start = new Date(bucket.start);
  const end = new Date(start.getTime() + HOUR_MS);
  return `${longFormat.format(start)}–${hourFormat.format(end)}`;
}

/** One hour, read out: what the tooltip shows and the live region announces. */
function describeBucket(bucket: DeliveryStatsBucket): string {
  const total = bucket.succeeded + bucket.failed;
  const parts = [`${bucketLabel(bucket)}: ${formatCount(bucket.succeeded)} succeeded, ${formatCount(bucket.failed)} failed`];
  if (total > 0 && bucket.median_latency_ms !== null) parts.push(`median latency ${formatDuration(bucket.median_latency_ms)}`);
  return parts.join(", ");
}

export interface StackedBarChartProps {
  buckets: DeliveryStatsBucket[];
  /** Names the chart for assistive tech. */
  label: string;
  /** id of the text summary that describes the chart. */
  describedBy?: string;
  className?: string;
}

/**
 * Hourly delivery attempts as stacked bars (succeeded under failed). One tab stop: arrow keys,
 * Home and End move between hours, each read out through a live region; hovering shows the same
 * tooltip. Drawn in pixels from the measured width, so text never stretches.
 */
export function StackedBarChart({ buckets, label, describedBy, className }: StackedBarChartProps) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const liveId = useId();

  const count = buckets.length;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = niceCeiling(Math.max(0, ...buckets.map((b) => b.succeeded + b.failed)));
  const band = count > 0 ? innerWidth / count : 0;
  const barWidth = Math.max(1, Math.min(28, band * (count > 48 ? 0.8 : 0.66)));
  const y = (value: number) => MARGIN.top + innerHeight - (value / max) * innerHeight;
  const spanHours = count;
  const empty = buckets.every((b) => b.succeeded + b.failed === 0);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (count === 0) return;
    const current = active ?? count - 1;
    const next =
      event.key === "ArrowLeft"
        ? Math.max(0, current - 1)
        : event.key === "ArrowRight"
          ? Math.min(count - 1, current + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? count - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    setActive(next);
  };

  const activeBucket = active !== null ? buckets[active] : undefined;
  const tooltipX = active !== null ? MARGIN.left + band * active + band / 2 : 0;

  return (
    <div className={cn("relative", className)}>
      <div
        ref={ref}
        role="group"
        aria-roledescription="bar chart"
        aria-label={`${label}. Use the left and right arrow keys to read each hour.`}
        aria-describedby={describedBy}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => {
          setFocused(true);
          setActive((current) => current ?? count - 1);
        }}
        onBlur={() => {
          setFocused(false);
          setActive(null);
        }}
        onMouseLeave={() => {
          if (!focused) setActive(null);
        }}
        className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600"
      >
        <svg width={width} height={HEIGHT} aria-hidden="true" className="block overflow-visible">
          {yTicks(max).map((tick) => (
            <g key={tick}>
              <line
                x1={MARGIN.left}
                x2={MARGIN.left + innerWidth}
                y1={y(tick)}
                y2={y(tick)}
                className={tick === 0 ? "stroke-slate-300" : "stroke-slate-200"}
                strokeDasharray={tick === 0 ? undefined : "3 3"}
              />
              <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" className="fill-slate-500 text-[11px] tabular-nums">
                {formatCount(tick)}
              </text>
            </g>
          ))}

          {buckets.map((bucket, index) => {
            const x = MARGIN.left + band * index + (band - barWidth) / 2;
            const okTop = y(bucket.succeeded);
            const failTop = y(bucket.succeeded + bucket.failed);
            const start = new Date(bucket.start);
            const dimmed = active !== null && active !== index;
            return (
              <g key={bucket.start} onMouseEnter={() => setActive(index)} className={cn("transition-opacity", dimmed && "opacity-45")}>
                {active === index && <rect x={MARGIN.left + band * index} y={MARGIN.top} width={band} height={innerHeight} className="fill-slate-100" />}
                {bucket.succeeded > 0 && (
                  <rect x={x} y={okTop} width={barWidth} height={y(0) - okTop} rx={barWidth > 6 ? 1.5 : 0} className="fill-emerald-500" />
                )}
                {bucket.failed > 0 && <rect x={x} y={failTop} width={barWidth} height={okTop - failTop} rx={barWidth > 6 ? 1.5 : 0} className="fill-red-500" />}
                {/* A full-height hit area: thin bars are hard to hover otherwise. */}
                <rect x={MARGIN.left + band * index} y={MARGIN.top} width={band} height={innerHeight} fill="transparent" />
                {isLabelled(start, spanHours) && (
                  <text x={MARGIN.left + band * index} y={HEIGHT - 8} textAnchor={index === 0 ? "start" : "middle"} className="fill-slate-500 text-[11px]">
                    {spanHours <= 48 ? hourFormat.format(start) : dayFormat.format(start)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>

        {empty && width > 0 && (
          <p className="pointer-events-none absolute inset-x-0 top-[38%] text-center text-[13px] text-slate-500">No delivery attempts in this period.</p>
        )}
      </div>

      {activeBucket && (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute z-10 w-max max-w-56 rounded-md bg-slate-900 px-2.5 py-2 text-xs text-white shadow-lg"
          // Beside the hovered bar (right of it in the left half, left of it in the right half) so it never covers it.
          style={tooltipX < width / 2 ? { top: MARGIN.top, left: tooltipX + band / 2 + 8 } : { top: MARGIN.top, right: width - tooltipX + band / 2 + 8 }}
        >
          <p className="font-medium">{bucketLabel(activeBucket)}</p>
          <p className="mt-1 flex items-center gap-1.5">
            <span className="size-2 rounded-xs bg-emerald-400" /> {formatCount(activeBucket.succeeded)} succeeded
          </p>
          <p className="flex items-center gap-1.5">
            <span className="size-2 rounded-xs bg-red-400" /> {formatCount(activeBucket.failed)} failed
          </p>
          {activeBucket.median_latency_ms !== null && activeBucket.succeeded + activeBucket.failed > 0 && (
            <p className="mt-0.5 text-slate-300">Median latency {formatDuration(activeBucket.median_latency_ms)}</p>
          )}
        </div>
      )}

      <p id={liveId} className="sr-only" aria-live="polite">
        {focused && activeBucket ? describeBucket(activeBucket) : ""}
      </p>
    </div>
  );
}
