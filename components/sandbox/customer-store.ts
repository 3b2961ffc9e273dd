"use client";

import { useCallback, useEffect, useState } from "react";

/**
 * Browser-only state of the sandbox phone, in localStorage:
 * - who the customer is (number, display name, channel) per project: the latest tester who joined the
 *   project, else a random +1555… number made once, so the same tester keeps the same conversation
 *   across visits;
 * - what the phone sent, per project + channel + number: the API has the business's side (the
 *   simulator's inbox) but the phone's own bubbles only exist here.
 */

export interface CustomerIdentity {
  from: string;
  name: string;
  channelId: string | null;
  /** The page picked the number (a joined tester or a random one), not the operator: a tester who joins later replaces it. */
  auto?: boolean;
}

export type SentKind = "text" | "image" | "document" | "location" | "button_reply" | "list_reply" | "flow_completion";

export interface SentItem {
  localId: string;
  at: string;
  kind: SentKind;
  text?: string;
  link?: string;
  caption?: string;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  reply?: { id: string; title: string };
  /** flow_completion: the values the customer submitted (without the flow_token). */
  response?: Record<string, unknown>;
  state: "sending" | "sent" | "failed";
  error?: string;
  /** Our provider endpoint's HTTP status for the simulated webhook (200 = accepted). */
  webhookStatus?: number;
  /** The provider message id the simulator gave it: matches Message.platform_message_id in the inbox. */
  providerMessageId?: string;
}

export function randomCustomerNumber(): string {
  const digits = Array.from(crypto.getRandomValues(new Uint8Array(7)), (byte) => String(byte % 10)).join("");
  return `+1555${digits}`;
}

/** What the simulator accepts as a PLATFORM_A customer: + (optional) and 8 to 15 digits. */
export function isValidCustomerNumber(value: string): boolean {
  return /^\+?[1-9]\d{7,14}$/.test(value.trim());
}

function load<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function save(key: string, value: unknown) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or full storage: the phone still works for this visit.
  }
}

const digitsOf = (phone: string) => phone.replace(/\D/g, "");

/**
 * Who the phone is when the page opens (issue 32 item 13): a number the operator chose stays; so does
 * one that joined the project. Otherwise the latest tester who joined (`joined`, latest first, as the
 * server lists them) rather than a number nobody joined with; a random one only when no tester joined.
 * `joined` undefined: still loading, so no answer yet (null) unless the operator chose the number.
 */
export function chooseIdentity(
  stored: CustomerIdentity | null,
  joined: readonly string[] | undefined,
  random: () => string = randomCustomerNumber,
): CustomerIdentity | null {
  const usable = stored && isValidCustomerNumber(stored.from) ? stored : null;
  // An identity saved before `auto` existed was made by this page too, unless it joined (kept below).
  if (usable && usable.auto === false) return usable;
  if (joined === undefined) return null;
  if (usable && (joined.length === 0 || joined.some((phone) => digitsOf(phone) === digitsOf(usable.from)))) return usable;
  const from = joined[0] ?? random();
  return { from, name: usable?.name ?? "", channelId: usable?.channelId ?? null, auto: true };
}

/**
 * The customer identity for a project. null until read from storage (after hydration) and, for a
 * browser that has not picked a number, until the project's joined testers are known.
 */
export function useCustomerIdentity(projectId: string, joined: readonly string[] | undefined) {
  const key = `svc.sandbox.customer.${projectId}`;
  const [identity, setIdentity] = useState<CustomerIdentity | null>(null);
  // By value: a refetch that brings the same testers is no reason to decide again.
  const joinedKey = joined?.join(",");

  useEffect(() => {
    const stored = load<CustomerIdentity>(key);
    const next = chooseIdentity(stored, joinedKey === undefined ? undefined : joinedKey.split(",").filter(Boolean));
    if (!next) return;
    if (next !== stored) save(key, next);
    setIdentity(next);
  }, [key, joinedKey]);

  const update = useCallback(
    (patch: Partial<CustomerIdentity>) =>
      setIdentity((current) => {
        if (!current) return current;
        // A number the operator typed (or asked for) is theirs: no joined tester replaces it.
        const next = { ...current, ...patch, ...(patch.from !== undefined ? { auto: false } : {}) };
        save(key, next);
        return next;
      }),
    [key],
  );
  return [identity, update] as const;
}

const MAX_ITEMS = 200;

/** The phone's sent messages for one customer on one channel (persisted; "sending" ones survive a reload as failed). */
export function useSentLog(projectId: string, channelId: string | null, from: string | null) {
  const key = channelId && from ? `svc.sandbox.sent.${projectId}.${channelId}.${from}` : null;
  const [items, setItems] = useState<SentItem[]>([]);

  useEffect(() => {
    if (!key) {
      setItems([]);
      return;
    }
    const stored = load<SentItem[]>(key) ?? [];
    setItems(
      stored.map((item) =>
        item.state === "sending" ? { ...item, state: "failed", error: "Interrupted by a page reload; it may or may not have arrived." } : item,
      ),
    );
  }, [key]);

  const change = useCallback(
    (updater: (current: SentItem[]) => SentItem[]) =>
      setItems((current) => {
        const next = updater(current).slice(-MAX_ITEMS);
        if (key) save(key, next);
        return next;
      }),
    [key],
  );

  const add = useCallback((item: SentItem) => change((current) => [...current, item]), [change]);
  const patch = useCallback(
    (localId: string, fields: Partial<SentItem>) => change((current) => current.map((item) => (item.localId === localId ? { ...item, ...fields } : item))),
    [change],
  );
  const clear = useCallback(() => change(() => []), [change]);
  return { items, add, patch, clear };
}
