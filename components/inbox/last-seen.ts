"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * "Unread" has no server state: this browser keeps, per conversation, when the operator last had it
 * open (localStorage, one JSON map per project). A conversation is unread when its last message is
 * the customer's and newer than that. Another browser or teammate has its own idea of unread.
 */
type SeenMap = Record<string, string>;

const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; map: SeenMap }>();
const EMPTY: SeenMap = {};

const storageKey = (projectId: string) => `svc.inbox.lastSeen.${projectId}`;

function read(projectId: string): SeenMap {
  if (typeof window === "undefined") return EMPTY;
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(storageKey(projectId));
  } catch {
    return EMPTY;
  }
  const cached = cache.get(projectId);
  if (cached && cached.raw === raw) return cached.map;
  let map: SeenMap = EMPTY;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === "object") map = parsed as SeenMap;
  } catch {
    map = EMPTY;
  }
  cache.set(projectId, { raw, map });
  return map;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key?.startsWith("svc.inbox.lastSeen.")) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

// Enough for any real inbox; the oldest entries go first so the map cannot grow without bound.
const MAX_ENTRIES = 500;

export function markSeen(projectId: string, conversationId: string, at: number = Date.now()) {
  const current = read(projectId);
  const previous = current[conversationId] ? Date.parse(current[conversationId]) : 0;
  if (previous >= at) return;
  const next: SeenMap = { ...current, [conversationId]: new Date(at).toISOString() };
  const entries = Object.entries(next);
  const trimmed = entries.length > MAX_ENTRIES ? Object.fromEntries(entries.sort((a, b) => b[1].localeCompare(a[1])).slice(0, MAX_ENTRIES)) : next;
  try {
    window.localStorage.setItem(storageKey(projectId), JSON.stringify(trimmed));
  } catch {
    return;
  }
  listeners.forEach((notify) => notify());
}

/** The last-seen map of a project and a stable `isUnread(conversationId, lastInboundAt)`. */
export function useLastSeen(projectId: string) {
  const map = useSyncExternalStore(
    subscribe,
    () => read(projectId),
    () => EMPTY,
  );
  const isUnread = useCallback(
    (conversationId: string, lastInboundAt: string | null | undefined) => {
      if (!lastInboundAt) return false;
      const seen = map[conversationId];
      return !seen || Date.parse(lastInboundAt) > Date.parse(seen);
    },
    [map],
  );
  return { isUnread };
}
