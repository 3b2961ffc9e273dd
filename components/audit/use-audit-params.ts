"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";
import type { AuditFilters } from "@/lib/client/audit";
import { isAuditAction, isAuditTargetType } from "./vocabulary";

export interface AuditParams {
  action: string;
  actor: string;
  target: string;
}

export const NO_FILTERS: AuditParams = { action: "", actor: "", target: "" };

/**
 * The log's filters live in the URL (?action=&actor=&target=), so a filtered view can be shared and
 * survives a reload. Each change is a history entry: Back returns to the previous filters, not to the
 * page before the log. An unknown action or target type is ignored rather than sent (the API would 400).
 */
export function useAuditParams() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const params: AuditParams = { action: search.get("action") ?? "", actor: search.get("actor") ?? "", target: search.get("target") ?? "" };

  const filters: AuditFilters = useMemo(
    () => ({
      action: isAuditAction(params.action) ? params.action : undefined,
      actor_id: params.actor || undefined,
      target_type: isAuditTargetType(params.target) ? params.target : undefined,
    }),
    [params.action, params.actor, params.target],
  );

  // The query as last asked for. router.push lands in a transition, so a second change made before
  // it renders (action cleared, then an actor picked) must build on the first, not on the stale `search`.
  const latest = useRef(search.toString());
  useEffect(() => {
    latest.current = search.toString();
  }, [search]);

  const update = useCallback(
    (changes: Partial<AuditParams>) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      const query = next.toString();
      latest.current = query;
      router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );

  const hasFilters = Boolean(params.action || params.actor || params.target);
  return { params, filters, update, hasFilters };
}
