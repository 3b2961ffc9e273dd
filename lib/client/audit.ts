"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import type { AuditEventWire as AuditEvent } from "@/lib/api/schemas/audit-events";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * The project's audit log (GET /audit-events, lib/api/routes/audit-events.ts): who created or revoked
 * a key, changed a secret, a member, a channel's routing, published or sent something. Types only
 * from the schema file; the action list itself is lib/shared/audit-actions.ts.
 */
export type { AuditEvent };
type AuditAction = AuditEvent["action"];
type AuditTargetType = AuditEvent["target"]["type"];
export type AuditActorType = AuditEvent["actor"]["type"];

/** The API's filters (AuditEventListQuery); undefined = not filtered. */
export interface AuditFilters {
  action?: AuditAction | undefined;
  actor_id?: string | undefined;
  target_type?: AuditTargetType | undefined;
}

const PAGE_SIZE = 25;

const auditKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "audit-events"),
  list: (projectId: string, filters: AuditFilters) => projectQueryKey(projectId, "audit-events", { ...filters }),
};

function listPath(filters: AuditFilters, startingAfter: string | undefined): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (filters.action) query.set("action", filters.action);
  if (filters.actor_id) query.set("actor_id", filters.actor_id);
  if (filters.target_type) query.set("target_type", filters.target_type);
  if (startingAfter) query.set("starting_after", startingAfter);
  return `/audit-events?${query}`;
}

/** Newest first, a page at a time ("Load more": the next page starts after the last entry loaded). */
export function useAuditEvents(projectId: string, filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(projectId, filters),
    queryFn: ({ signal, pageParam }) => projectApi<ListEnvelope<AuditEvent>>(projectId, listPath(filters, pageParam), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    // The actions it records happen on other pages (Keys, Overview, Config) and through the API, none
    // of which invalidate this key: always ask again when the page opens instead of showing a stale log.
    staleTime: 0,
  });
}
