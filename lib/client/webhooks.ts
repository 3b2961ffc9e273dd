"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ProjectWire as Project } from "@/lib/api/schemas/projects";
import type {
  ReplayRequestInput as ReplayInput,
  ReplayResponseWire as ReplayResult,
  WebhookAttemptWire as WebhookAttempt,
  WebhookDeliveryDetailWire as WebhookDeliveryDetail,
  WebhookDeliveryWire as WebhookDelivery,
} from "@/lib/api/schemas/webhooks";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Webhook logs: the project's webhook target, delivery stats, deliveries and their attempts. The API's
 * shapes come from lib/api/schemas/webhooks.ts and projects.ts (types only: nothing of the server
 * reaches the browser bundle); the stats are dashboard-only (lib/dashboard/routes/webhook-stats.ts).
 */

export type { ReplayInput, ReplayResult, WebhookAttempt, WebhookDelivery, WebhookDeliveryDetail };

export type DeliveryStatus = WebhookDelivery["status"];
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "paused"] as const satisfies readonly DeliveryStatus[];

export { EVENT_TYPES } from "@/lib/shared/event-types";

export interface DeliveryStatsBucket {
  start: string;
  succeeded: number;
  failed: number;
  median_latency_ms: number | null;
}

export interface DeliveryStats {
  object: "webhook_delivery_stats";
  hours: number;
  buckets: DeliveryStatsBucket[];
  totals: { succeeded: number; failed: number; success_rate: number | null };
}

/** The project fields the webhook and channel pages need (GET /projects/{id}). */
export type ProjectSettings = Pick<
  Project,
  "id" | "name" | "routing_mode" | "webhook_url" | "webhook_signing_enabled" | "webhook_secret" | "channel_id" | "join_code"
>;

export interface DeliveryFilters {
  event?: string | undefined;
  status?: DeliveryStatus | undefined;
  /** ISO 8601. */
  since?: string | undefined;
}

const POLL_MS = 3_000;
const PAGE_SIZE = 25;

const keys = {
  // The same key and raw GET /projects/{id} body as lib/client/projects.ts, so the cache is shared:
  // a webhook URL changed on Overview shows here at once.
  project: (projectId: string) => projectQueryKey(projectId, "project"),
  stats: (projectId: string, hours: number) => projectQueryKey(projectId, "webhook-stats", hours),
  deliveries: (projectId: string, filters?: DeliveryFilters) =>
    filters ? projectQueryKey(projectId, "webhook-deliveries", { ...filters }) : projectQueryKey(projectId, "webhook-deliveries"),
  delivery: (projectId: string, id: string) => projectQueryKey(projectId, "webhook-delivery", id),
};

export function useProjectSettings(projectId: string) {
  return useQuery({
    queryKey: keys.project(projectId),
    queryFn: ({ signal }) => projectApi<ProjectSettings>(projectId, `/projects/${encodeURIComponent(projectId)}`, { signal }),
  });
}

export function useDeliveryStats(projectId: string, hours: number) {
  return useQuery({
    queryKey: keys.stats(projectId, hours),
    queryFn: ({ signal }) => projectApi<DeliveryStats>(projectId, `/webhook-deliveries/stats?hours=${hours}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

function deliveriesPath(filters: DeliveryFilters, startingAfter: string | undefined): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (filters.event) query.set("event", filters.event);
  if (filters.status) query.set("status", filters.status);
  if (filters.since) query.set("since", filters.since);
  if (startingAfter) query.set("starting_after", startingAfter);
  return `/webhook-deliveries?${query}`;
}

/** Newest first, a page at a time ("Load more"); polls every 3 s while any loaded delivery is pending. */
export function useDeliveries(projectId: string, filters: DeliveryFilters) {
  return useInfiniteQuery({
    queryKey: keys.deliveries(projectId, filters),
    queryFn: ({ signal, pageParam }) => projectApi<ListEnvelope<WebhookDelivery>>(projectId, deliveriesPath(filters, pageParam), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.data.some((d) => d.status === "pending")) ? POLL_MS : false),
  });
}

/** One delivery with its attempts and event; polls every 3 s while it is pending. */
export function useDelivery(projectId: string, deliveryId: string) {
  return useQuery({
    queryKey: keys.delivery(projectId, deliveryId),
    queryFn: ({ signal }) => projectApi<WebhookDeliveryDetail>(projectId, `/webhook-deliveries/${encodeURIComponent(deliveryId)}`, { signal }),
    refetchInterval: (query) => (query.state.data?.status === "pending" ? POLL_MS : false),
  });
}

function useInvalidateDeliveries(projectId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: keys.deliveries(projectId) }),
      client.invalidateQueries({ queryKey: projectQueryKey(projectId, "webhook-stats") }),
    ]);
}

/** POST …/redeliver: a new delivery of the same event; resolves with it. */
export function useRedeliver(projectId: string) {
  const client = useQueryClient();
  const invalidate = useInvalidateDeliveries(projectId);
  return useMutation({
    mutationFn: (deliveryId: string) =>
      projectApi<WebhookDeliveryDetail>(projectId, `/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: "POST" }),
    onSuccess: (created, originalId) => {
      client.setQueryData(keys.delivery(projectId, created.id), created);
      void client.invalidateQueries({ queryKey: keys.delivery(projectId, originalId) });
      void invalidate();
    },
  });
}

/** POST …/webhook-deliveries/replay: every matching event once more. */
export function useReplay(projectId: string) {
  const invalidate = useInvalidateDeliveries(projectId);
  return useMutation({
    mutationFn: (input: ReplayInput) => projectApi<ReplayResult>(projectId, "/webhook-deliveries/replay", { method: "POST", body: input }),
    onSuccess: () => void invalidate(),
  });
}
