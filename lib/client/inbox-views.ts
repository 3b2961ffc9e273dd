/**
 * The inbox's views as URL search params (issue 37 item 1): which list is shown lives in the address,
 * so a view can be shared and the back button returns to the previous one. Pure functions only: the
 * page reads them with useSearchParams and writes them with router.push.
 *
 *   ?view=unassigned&channel=ch_…&window=closing&q=ana&c=conv_…
 */

import { WINDOW_FILTERS, type ConversationView, type WindowFilter } from "@/lib/shared/inbox";

export { WINDOW_FILTERS, type WindowFilter };
export type InboxView = ConversationView;
/** The server's views (lib/shared/inbox.ts), in the order the inbox shows them. */
export const INBOX_VIEWS: readonly InboxView[] = ["open", "needs_person", "mine", "unassigned", "all"];

export const VIEW_LABELS: Record<InboxView, string> = {
  open: "Open",
  needs_person: "Needs a person",
  mine: "Mine",
  unassigned: "Unassigned",
  all: "All",
};

export const WINDOW_LABELS: Record<WindowFilter, string> = {
  open: "Window open",
  closing: "Closing within 1 h",
  closed: "Window closed",
};

/** With no ?view the inbox lists every conversation, as it did before views existed (old links keep their meaning). */
const DEFAULT_VIEW: InboxView = "all";

export interface InboxFilters {
  view: InboxView;
  channel: string | null;
  window: WindowFilter | null;
  q: string;
}

export interface InboxLocation extends InboxFilters {
  /** The open conversation. */
  conversation: string | null;
}

type ParamsLike = { get(name: string): string | null };

const isView = (value: string | null): value is InboxView => INBOX_VIEWS.includes(value as InboxView);
const isWindow = (value: string | null): value is WindowFilter => WINDOW_FILTERS.includes(value as WindowFilter);

/** Unknown values fall back to the default instead of an error page: an old or hand-edited link still opens. */
export function readInboxLocation(params: ParamsLike): InboxLocation {
  const view = params.get("view");
  const window = params.get("window");
  return {
    view: isView(view) ? view : DEFAULT_VIEW,
    channel: params.get("channel") || null,
    window: isWindow(window) ? window : null,
    q: params.get("q") ?? "",
    conversation: params.get("c") || null,
  };
}

/** The query string of a location; defaults are left out so the plain inbox URL stays plain. */
export function inboxSearch(location: InboxLocation): string {
  const params = new URLSearchParams();
  if (location.view !== DEFAULT_VIEW) params.set("view", location.view);
  if (location.channel) params.set("channel", location.channel);
  if (location.window) params.set("window", location.window);
  if (location.q.trim()) params.set("q", location.q.trim());
  if (location.conversation) params.set("c", location.conversation);
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** GET /conversations's query for these filters (the contract's names: view, channel_id, window, q). */
export function conversationFilterQuery(filters: InboxFilters, { withView }: { withView: boolean }): URLSearchParams {
  const params = new URLSearchParams();
  if (withView && filters.view !== "all") params.set("view", filters.view);
  if (filters.channel) params.set("channel_id", filters.channel);
  if (filters.window) params.set("window", filters.window);
  if (filters.q.trim()) params.set("q", filters.q.trim());
  return params;
}

/** Key parts for react-query: one list (and one counts answer) per filter combination. */
export function filterKey(filters: InboxFilters): Record<string, string> {
  return { view: filters.view, channel: filters.channel ?? "", window: filters.window ?? "", q: filters.q.trim() };
}
