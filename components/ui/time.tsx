"use client";

import { useSyncExternalStore } from "react";

// One shared 30 s tick for every <Time> on the page, instead of an interval per timestamp.
let now = Date.now();
const listeners = new Set<() => void>();
let interval: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!interval) {
    interval = setInterval(() => {
      now = Date.now();
      listeners.forEach((notify) => notify());
    }, 30_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && interval) {
      clearInterval(interval);
      interval = undefined;
    }
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Absolute short form: "Mar 4, 14:05" this year, "Mar 4, 2025" before. */
export function formatDateTime(date: Date, reference: Date = new Date()): string {
  const sameYear = date.getFullYear() === reference.getFullYear();
  return sameYear
    ? date.toLocaleString("en", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false })
    : date.toLocaleDateString("en", { month: "short", day: "numeric", year: "numeric" });
}

/** "just now", "3 min ago", "2 hr ago", "yesterday", "4 days ago", then the date; "in 5 min" for the future. */
export function formatRelativeTime(date: Date, reference: number = Date.now()): string {
  const diff = reference - date.getTime();
  const future = diff < 0;
  const abs = Math.abs(diff);
  const say = (text: string) => (future ? `in ${text}` : `${text} ago`);
  if (abs < 45_000) return future ? "in a moment" : "just now";
  if (abs < HOUR) return say(`${Math.max(1, Math.round(abs / MINUTE))} min`);
  if (abs < DAY) return say(`${Math.round(abs / HOUR)} hr`);
  const days = Math.round(abs / DAY);
  if (days === 1) return future ? "tomorrow" : "yesterday";
  if (days < 7) return say(`${days} days`);
  return formatDateTime(date, new Date(reference));
}

export interface TimeProps {
  /** An ISO 8601 string (what the API returns), a Date, or null/undefined (shows `fallback`). */
  value: string | Date | null | undefined;
  /** "relative" (default, updates every 30 s) or "absolute". */
  format?: "relative" | "absolute";
  fallback?: string;
  className?: string;
}

/** A timestamp as a <time> element: readable text, the exact ISO value in its title and dateTime. */
export function Time({ value, format = "relative", fallback = "—", className }: TimeProps) {
  const current = useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
  if (!value) return <span className={className}>{fallback}</span>;
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return <span className={className}>{fallback}</span>;
  const iso = date.toISOString();
  const text = format === "relative" ? formatRelativeTime(date, Math.max(current, Date.now())) : formatDateTime(date);
  return (
    // Server and browser clocks (and time zones) differ, so the text may legitimately differ after hydration.
    <time dateTime={iso} title={typeof value === "string" ? value : iso} className={className} suppressHydrationWarning>
      {text}
    </time>
  );
}
