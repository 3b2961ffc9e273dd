"use client";

import { useQueryClient, type Query, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { InboxEvent } from "@/lib/domain/inbox-live";
import { inboxKeys } from "./inbox";
import { markInboxFollowed } from "./inbox-poll";

/**
 * The inbox's live updates (README "Inbox: live updates"): an EventSource on the project's inbox
 * stream; each event marks the inbox queries it concerns stale, so the open views refetch. When the
 * stream fails the inbox polls every 5 s and the stream is tried again with backoff.
 */

export type { InboxEvent };
export type InboxLiveMode = "live" | "polling";

/** How often the inbox refetches while the stream is down. */
const INBOX_POLL_MS = 5_000;
/** Events arriving within this window are applied together: a burst (a broadcast's ticks) refetches each view once. */
const GATHER_MS = 250;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** The stream's address for a project. */
export function inboxStreamUrl(projectId: string): string {
  return `/api/dashboard/projects/${encodeURIComponent(projectId)}/inbox/stream`;
}

/** The wait before the stream's `attempt`-th retry (0 = the first): doubling from 1 s to at most 30 s, with a little jitter. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY_FIRST_MS * 2 ** Math.min(attempt, 10), RETRY_MAX_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** One event's data line, or null when it is not an inbox event (a newer server's type is ignored, not guessed at). */
export function parseInboxEvent(data: string): InboxEvent | null {
  try {
    const value = JSON.parse(data) as Partial<InboxEvent>;
    if (typeof value.conversation_id !== "string" || typeof value.type !== "string") return null;
    if (!["message.created", "message.updated", "conversation.updated", "note.created"].includes(value.type)) return null;
    return typeof value.id === "string"
      ? { type: value.type, conversation_id: value.conversation_id, id: value.id }
      : { type: value.type, conversation_id: value.conversation_id };
  } catch {
    return null;
  }
}

/** Query keys are ["project", projectId, ...parts]: the string parts, for matching by name. */
function partsOf(query: Query, projectId: string): string[] | null {
  const key = query.queryKey;
  if (key[0] !== "project" || key[1] !== projectId) return null;
  return key.slice(2).filter((part): part is string => typeof part === "string");
}

/**
 * Whether a query is one of the inbox's for `conversationIds`: a key whose name holds "notes" and one of
 * the conversations (its notes), or "counts" (the views' counts move with any conversation).
 */
function isNotesOrCountsQuery(query: Query, projectId: string, conversationIds: ReadonlySet<string>): boolean {
  const parts = partsOf(query, projectId);
  if (!parts) return false;
  if (parts.some((part) => part.includes("counts"))) return true;
  return parts.some((part) => part.includes("notes")) && parts.some((part) => conversationIds.has(part));
}

/** Something more an event makes stale (the UI's own queries): added with addInboxInvalidator. */
export type InboxInvalidator = (queryClient: QueryClient, projectId: string, events: readonly InboxEvent[]) => void;
const extraInvalidators = new Set<InboxInvalidator>();

/** Registers what else the inbox's events make stale; returns the function that removes it. */
export function addInboxInvalidator(invalidator: InboxInvalidator): () => void {
  extraInvalidators.add(invalidator);
  return () => void extraInvalidators.delete(invalidator);
}

/**
 * Marks stale what `events` concern: every conversation list, and per conversation its own query, and
 * for message events its messages and preview; the notes and counts queries (by name); then whatever
 * was added with addInboxInvalidator. Only the views on screen refetch (react-query's default).
 */
export function invalidateForInboxEvents(queryClient: QueryClient, projectId: string, events: readonly InboxEvent[]): void {
  if (events.length === 0) return;
  const conversations = new Set(events.map((event) => event.conversation_id));
  const withMessages = new Set(events.filter((event) => event.type.startsWith("message.")).map((event) => event.conversation_id));
  void queryClient.invalidateQueries({ queryKey: inboxKeys.conversations(projectId) });
  for (const id of conversations) void queryClient.invalidateQueries({ queryKey: inboxKeys.conversation(projectId, id) });
  for (const id of withMessages) {
    void queryClient.invalidateQueries({ queryKey: inboxKeys.messages(projectId, id) });
    void queryClient.invalidateQueries({ queryKey: inboxKeys.preview(projectId, id) });
  }
  void queryClient.invalidateQueries({ predicate: (query) => isNotesOrCountsQuery(query, projectId, conversations) });
  for (const invalidator of extraInvalidators) invalidator(queryClient, projectId, events);
}

/** Every inbox query of the project (the polling fallback refetches the ones on screen). */
function isInboxQuery(query: Query, projectId: string): boolean {
  const parts = partsOf(query, projectId);
  return parts !== null && (parts[0] === "inbox" || parts.some((part) => part.includes("notes") || part.includes("counts")));
}

/**
 * Follows the project's inbox: `live` while the stream is open (each event invalidates, gathered over a
 * quarter second), `polling` otherwise (before it opens, and after it fails: a refetch every 5 s while
 * the stream is retried with backoff; when it opens again everything is refetched once, since events
 * may have been missed meanwhile).
 */
export function useInboxLive(projectId: string): { mode: InboxLiveMode } {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<InboxLiveMode>("polling");

  useEffect(() => {
    let source: EventSource | null = null;
    let stopped = false;
    let attempt = 0;
    let failedBefore = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;
    let gather: ReturnType<typeof setTimeout> | null = null;
    let gathered: InboxEvent[] = [];

    const startPolling = () => {
      poll ??= setInterval(() => void queryClient.refetchQueries({ predicate: (query) => isInboxQuery(query, projectId), type: "active" }), INBOX_POLL_MS);
    };
    const stopPolling = () => {
      if (poll) clearInterval(poll);
      poll = null;
    };
    const flush = () => {
      gather = null;
      const events = gathered;
      gathered = [];
      invalidateForInboxEvents(queryClient, projectId, events);
    };
    const connect = () => {
      retry = null;
      if (stopped) return;
      if (typeof EventSource === "undefined") return startPolling();
      const current = new EventSource(inboxStreamUrl(projectId));
      source = current;
      current.onopen = () => {
        attempt = 0;
        stopPolling();
        setMode("live");
        if (failedBefore) void queryClient.invalidateQueries({ predicate: (query) => isInboxQuery(query, projectId) });
      };
      current.addEventListener("inbox", (message) => {
        const event = parseInboxEvent((message as MessageEvent<string>).data);
        if (!event) return;
        gathered.push(event);
        gather ??= setTimeout(flush, GATHER_MS);
      });
      current.onerror = () => {
        // The browser's own reconnect would retry at a fixed pace, forever: close it and retry with backoff.
        current.close();
        if (source === current) source = null;
        failedBefore = true;
        setMode("polling");
        startPolling();
        if (!stopped) retry = setTimeout(connect, retryDelayMs(attempt++));
      };
    };

    markInboxFollowed(projectId, true);
    startPolling();
    connect();
    return () => {
      stopped = true;
      markInboxFollowed(projectId, false);
      source?.close();
      stopPolling();
      if (retry) clearTimeout(retry);
      if (gather) clearTimeout(gather);
    };
  }, [queryClient, projectId]);

  return { mode };
}
