"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { DELIVERY_STATUSES, EVENT_TYPES, type DeliveryFilters, type DeliveryStatus } from "@/lib/client/webhooks";
import type { StatsRange } from "./delivery-chart-card";

/** "since" choices offered in the filter; the URL may also carry an exact ISO time (shown as "Custom"). */
export const SINCE_PRESETS = [
  { value: "1h", label: "Last hour", ms: 3600_000 },
  { value: "24h", label: "Last 24 hours", ms: 24 * 3600_000 },
  { value: "7d", label: "Last 7 days", ms: 7 * 24 * 3600_000 },
  { value: "30d", label: "Last 30 days", ms: 30 * 24 * 3600_000 },
] as const;

export interface LogParams {
  event: string;
  status: string;
  /** A preset value, an ISO time, or "". */
  since: string;
  range: StatsRange;
}

function sinceToIso(since: string): string | undefined {
  if (!since) return undefined;
  const preset = SINCE_PRESETS.find((p) => p.value === since);
  // Rounded to the minute so the query key (and the cache) holds still between renders.
  if (preset) return new Date(Math.floor((Date.now() - preset.ms) / 60_000) * 60_000).toISOString();
  const date = new Date(since);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * The logs page's filters and chart range live in the URL (?event=&status=&since=&range=) so a
 * filtered view can be shared and survives a reload.
 */
export function useLogParams() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const params: LogParams = {
    event: search.get("event") ?? "",
    status: search.get("status") ?? "",
    since: search.get("since") ?? "",
    range: search.get("range") === "7d" ? "7d" : "24h",
  };

  const filters: DeliveryFilters = useMemo(
    () => ({
      event: (EVENT_TYPES as readonly string[]).includes(params.event) ? params.event : undefined,
      status: (DELIVERY_STATUSES as readonly string[]).includes(params.status) ? (params.status as DeliveryStatus) : undefined,
      since: sinceToIso(params.since),
    }),
    [params.event, params.status, params.since],
  );

  const update = useCallback(
    (changes: Partial<LogParams>) => {
      const next = new URLSearchParams(search.toString());
      for (const [key, value] of Object.entries(changes)) {
        if (!value || (key === "range" && value === "24h")) next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [search, router, pathname],
  );

  const hasFilters = Boolean(params.event || params.status || params.since);
  return { params, filters, update, hasFilters };
}
