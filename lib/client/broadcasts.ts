"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type {
  BroadcastCreateWire as BroadcastCreateRequest,
  BroadcastRecipientInputWire as BroadcastRecipientInput,
  BroadcastRecipientWire as BroadcastRecipient,
  BroadcastRecipientsAddedWire as BroadcastRecipientsAdded,
  BroadcastStatsWire as BroadcastStats,
  BroadcastWire as Broadcast,
} from "@/lib/api/schemas/broadcasts";
import { RECIPIENT_LIMITS } from "@/lib/shared/broadcasts/recipients";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Broadcasts of a project (docs/spec/decisions.md "Broadcasts"): the list, one broadcast with its live
 * stats, its recipients, and the writes. Every write carries an Idempotency-Key (the API requires it):
 * the caller makes one per operator action and passes the same one again when the operator retries
 * that action, so a lost answer never adds recipients twice or starts a second send.
 */
export type { Broadcast, BroadcastCreateRequest, BroadcastRecipient, BroadcastRecipientInput, BroadcastRecipientsAdded, BroadcastStats };

export type BroadcastStatus = Broadcast["status"];
export type BroadcastRecipientStatus = BroadcastRecipient["status"];

export const BROADCAST_STATUS_LIST = [
  "DRAFT",
  "SCHEDULED",
  "SENDING",
  "PAUSED",
  "COMPLETED",
  "CANCELLED",
  "FAILED",
] as const satisfies readonly BroadcastStatus[];
export const RECIPIENT_STATUS_LIST = [
  "pending",
  "queued",
  "sent",
  "delivered",
  "read",
  "failed",
  "skipped",
] as const satisfies readonly BroadcastRecipientStatus[];

/** The API's cap on recipients per POST /broadcasts/{id}/recipients (the server's own limit). */
export const RECIPIENTS_PER_CALL = RECIPIENT_LIMITS.perCall;

/** While a broadcast moves on its own (sending, or waiting for its time), the page asks again this often. */
export const LIVE_POLL_MS = 1_500;
const LIST_POLL_MS = 3_000;
const LIST_PAGE = 50;

const isLive = (broadcast: Pick<Broadcast, "status">) => broadcast.status === "SENDING" || broadcast.status === "SCHEDULED";

/** Delivery and read receipts keep arriving for a while after the last message went out. */
const RECEIPTS_WINDOW_MS = 120_000;
const RECEIPTS_POLL_MS = 5_000;

/** How often a broadcast's page asks again: fast while it moves, slower while late receipts may still land, else never. */
export function pollIntervalOf(broadcast: Pick<Broadcast, "status" | "completed_at">, now = Date.now()): number | false {
  if (isLive(broadcast)) return LIVE_POLL_MS;
  const finished = broadcast.completed_at ? Date.parse(broadcast.completed_at) : Number.NaN;
  return now - finished < RECEIPTS_WINDOW_MS ? RECEIPTS_POLL_MS : false;
}

export interface BroadcastFilters {
  status?: BroadcastStatus | undefined;
  channel_id?: string | undefined;
}

const broadcastKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "broadcasts"),
  list: (projectId: string, filters: BroadcastFilters, cursor: string | undefined) => projectQueryKey(projectId, "broadcasts", "list", { ...filters, cursor }),
  one: (projectId: string, id: string) => projectQueryKey(projectId, "broadcasts", "one", id),
  recipients: (projectId: string, id: string, status: BroadcastRecipientStatus | undefined, cursor: string | undefined) =>
    projectQueryKey(projectId, "broadcasts", "recipients", id, { status, cursor }),
};

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}

const path = (id: string, rest = "") => `/broadcasts/${encodeURIComponent(id)}${rest}`;
const withKey = (key: string) => ({ "Idempotency-Key": key });

/** GET /broadcasts, newest first, one page at a time (`cursor` = starting_after); polls while one listed is live. */
export function useBroadcasts(projectId: string, filters: BroadcastFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: broadcastKeys.list(projectId, filters, cursor),
    queryFn: ({ signal }) =>
      projectApi<ListEnvelope<Broadcast>>(projectId, `/broadcasts${query({ ...filters, limit: String(LIST_PAGE), starting_after: cursor })}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some(isLive) ? LIST_POLL_MS : false),
  });
}

/** GET /broadcasts/{id}; polls every LIVE_POLL_MS while SENDING or SCHEDULED so the bar moves on its own (pollIntervalOf). */
export function useBroadcast(projectId: string, id: string) {
  return useQuery({
    queryKey: broadcastKeys.one(projectId, id),
    queryFn: ({ signal }) => projectApi<Broadcast>(projectId, path(id), { signal }),
    refetchInterval: (q) => (q.state.data ? pollIntervalOf(q.state.data) : false),
  });
}

/** GET /broadcasts/{id}/recipients?status=, one page; polls every `pollMs` (the broadcast's pollIntervalOf) or not at all. */
export function useBroadcastRecipients(
  projectId: string,
  id: string,
  options: { status?: BroadcastRecipientStatus | undefined; cursor?: string | undefined; limit: number; pollMs: number | false },
) {
  return useQuery({
    queryKey: broadcastKeys.recipients(projectId, id, options.status, options.cursor),
    queryFn: ({ signal }) =>
      projectApi<ListEnvelope<BroadcastRecipient>>(
        projectId,
        path(id, `/recipients${query({ status: options.status, limit: String(options.limit), starting_after: options.cursor })}`),
        { signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: options.pollMs,
  });
}

/** POST /broadcasts: 200 with the DRAFT broadcast; 409 template_not_approved, 412 channel_not_ready, 400 invalid_request. */
export function useCreateBroadcast(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: BroadcastCreateRequest; idempotencyKey: string }) =>
      projectApi<Broadcast>(projectId, "/broadcasts", { method: "POST", body: request, headers: withKey(idempotencyKey) }),
    onSuccess: (broadcast) => {
      client.setQueryData(broadcastKeys.one(projectId, broadcast.id), broadcast);
      void client.invalidateQueries({ queryKey: broadcastKeys.all(projectId) });
    },
  });
}

/**
 * POST /broadcasts/{id}/recipients, one chunk of at most RECIPIENTS_PER_CALL: `{added, duplicates,
 * errors: [{index, message}]}` with `index` into this chunk. 409 broadcast_not_editable once it sends.
 */
export function addBroadcastRecipients(projectId: string, id: string, recipients: BroadcastRecipientInput[], idempotencyKey: string) {
  return projectApi<BroadcastRecipientsAdded>(projectId, path(id, "/recipients"), { method: "POST", body: { recipients }, headers: withKey(idempotencyKey) });
}

export type BroadcastAction = "send" | "pause" | "cancel" | "resend-unknown";

/**
 * POST /broadcasts/{id}/send | pause | cancel | resend-unknown with `{}`. send starts it (SCHEDULED
 * when send_at is set) or resumes a PAUSED one: 409 template_not_approved, 412 channel_not_ready, 422
 * broadcast_has_no_recipients; resend-unknown sends once more the recipients whose outcome is unknown
 * (a COMPLETED broadcast); 409 broadcast_not_editable when the state does not allow the action.
 */
export function useBroadcastAction(projectId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, idempotencyKey }: { action: BroadcastAction; idempotencyKey: string }) =>
      projectApi<Broadcast>(projectId, path(id, `/${action}`), { method: "POST", body: {}, headers: withKey(idempotencyKey) }),
    onSuccess: (broadcast) => {
      client.setQueryData(broadcastKeys.one(projectId, id), broadcast);
      void client.invalidateQueries({ queryKey: broadcastKeys.all(projectId) });
    },
  });
}

/** After recipients were added: the broadcast's stats and its recipient pages are stale. */
export function useRefreshBroadcast(projectId: string, id: string) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: broadcastKeys.one(projectId, id) });
    void client.invalidateQueries({ queryKey: projectQueryKey(projectId, "broadcasts", "recipients", id) });
    void client.invalidateQueries({ queryKey: projectQueryKey(projectId, "broadcasts", "list") });
  };
}
