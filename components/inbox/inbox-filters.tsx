"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { SearchIcon } from "@/components/ui/icons";
import type { Channel } from "@/lib/client/channels";
import type { ConversationCounts } from "@/lib/client/inbox-team";
import { INBOX_VIEWS, VIEW_LABELS, WINDOW_FILTERS, WINDOW_LABELS, type InboxLocation, type InboxView, type WindowFilter } from "@/lib/client/inbox-views";
import { channelLabel } from "./format";

/** Typing pauses this long before the search goes to the server (and into the URL). */
const SEARCH_DEBOUNCE_MS = 300;

export interface InboxFiltersProps {
  location: InboxLocation;
  counts: ConversationCounts | undefined;
  channels: Channel[] | undefined;
  hrefFor: (patch: Partial<InboxLocation>) => string;
  onChange: (patch: Partial<InboxLocation>, options?: { replace?: boolean }) => void;
}

const countOf = (counts: ConversationCounts | undefined, view: InboxView): number | null => (counts ? counts[view] : null);

/**
 * The list's views (links, so each is a URL of its own and the back button returns to the previous
 * one) with their counts, then the channel and reply-window filters and the search.
 */
export function InboxFilters({ location, counts, channels, hrefFor, onChange }: InboxFiltersProps) {
  return (
    <div className="space-y-2 border-b border-slate-200 p-3">
      <nav aria-label="Inbox views">
        <ul className="flex flex-wrap gap-1">
          {INBOX_VIEWS.map((view) => {
            const active = location.view === view;
            const count = countOf(counts, view);
            return (
              <li key={view}>
                <Link
                  href={hrefFor({ view, conversation: null })}
                  scroll={false}
                  aria-current={active ? "page" : undefined}
                  data-view={view}
                  className={cn(
                    "inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600",
                    active ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100",
                  )}
                >
                  {VIEW_LABELS[view]}
                  {count !== null && (
                    <span data-testid={`count-${view}`} className={cn("rounded px-1 tabular-nums", active ? "bg-white/20" : "bg-slate-100 text-slate-700")}>
                      {count}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="grid grid-cols-2 gap-2">
        <FilterSelect
          label="Channel"
          value={location.channel ?? ""}
          onChange={(value) => onChange({ channel: value || null, conversation: null })}
          options={[{ value: "", label: "All channels" }, ...(channels ?? []).map((channel) => ({ value: channel.id, label: channelLabel(channel) }))]}
        />
        <FilterSelect
          label="Reply window"
          value={location.window ?? ""}
          onChange={(value) => onChange({ window: (value || null) as WindowFilter | null, conversation: null })}
          options={[{ value: "", label: "Any window" }, ...WINDOW_FILTERS.map((value) => ({ value, label: WINDOW_LABELS[value] }))]}
        />
      </div>
      <SearchBox value={location.q} onSearch={(q) => onChange({ q }, { replace: true })} />
    </div>
  );
}

function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <label className="block min-w-0">
      <span className="sr-only">{label}</span>
      <select
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="block h-8 w-full truncate rounded-md border-0 bg-white pr-7 pl-2 text-xs text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600 focus:outline-none"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Local text while typing; the URL (and so the server's search) follows after a pause. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const [lastUrlValue, setLastUrlValue] = useState(value);
  // The URL changed from elsewhere (back button, a shared link): the box shows it.
  if (value !== lastUrlValue) {
    setLastUrlValue(value);
    setText(value);
  }
  // The latest callback without restarting the pause on every render of the page (it polls).
  const search = useRef(onSearch);
  useEffect(() => {
    search.current = onSearch;
  });
  useEffect(() => {
    if (text.trim() === value.trim()) return;
    const timer = setTimeout(() => search.current(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <label className="relative block">
      <span className="sr-only">Search conversations</span>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-slate-400" />
      <input
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search by name or number"
        aria-busy={text.trim() !== value.trim()}
        className="block h-9 w-full rounded-md border-0 bg-white pr-3 pl-8 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
      />
    </label>
  );
}
