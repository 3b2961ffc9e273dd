"use client";

import { useEffect, useMemo, useState } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { InboxIcon, PhoneIcon, SearchIcon } from "@/components/ui/icons";
import { Skeleton, SkeletonGroup } from "@/components/ui/skeleton";
import { cn } from "@/components/ui/cn";
import type { Channel } from "@/lib/client/channels";
import { useConversations, type Conversation } from "@/lib/client/inbox";
import { ConversationRow } from "./conversation-row";
import { useLastSeen } from "./last-seen";

export interface ConversationListProps {
  projectId: string;
  selectedId: string | null;
  hrefFor: (conversationId: string) => string;
  channels: Channel[] | undefined;
  sandboxHref: string;
}

const activityOf = (conversation: Conversation) => Date.parse(conversation.last_message_at ?? conversation.started_at);

/** Typing pauses this long before the search goes to the server. */
const SEARCH_DEBOUNCE_MS = 300;

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Every conversation, the most recent customer activity first. Search runs on the server
 * (GET /conversations?q=, contact name or phone number; a number typed with spaces or dashes matches
 * its digits), so it covers every conversation, not only the loaded pages.
 */
export function ConversationList({ projectId, selectedId, hrefFor, channels, sandboxHref }: ConversationListProps) {
  const { isUnread } = useLastSeen(projectId);
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useConversations(projectId, term);
  // The list on screen is for an older search while the new one loads (placeholder data).
  const searching = search.trim() !== term || (query.isPlaceholderData && query.isFetching);

  const conversations = useMemo(() => {
    const seen = new Set<string>();
    const all: Conversation[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const conversation of page.data) {
        if (!seen.has(conversation.id)) all.push(conversation);
        seen.add(conversation.id);
      }
    }
    return all.sort((a, b) => activityOf(b) - activityOf(a));
  }, [query.data]);

  const channelById = useMemo(() => new Map((channels ?? []).map((channel) => [channel.id, channel])), [channels]);

  if (query.isPending) {
    return (
      <SkeletonGroup label="Loading conversations" className="divide-y divide-slate-100">
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="flex gap-3 px-4 py-3.5">
            <Skeleton className="size-9 rounded-full!" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-3.5 w-1/2" />
              <Skeleton className="h-3 w-5/6" />
            </div>
          </div>
        ))}
      </SkeletonGroup>
    );
  }
  if (query.error && !query.data) {
    return <ErrorState compact error={query.error} title="Couldn't load conversations" onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (conversations.length === 0 && !term && !search) {
    return (
      <EmptyState
        compact
        icon={<InboxIcon />}
        title="No conversations yet"
        description="A conversation starts when a customer writes to one of your channels. Try it yourself: open the Sandbox phone, send your project's join code, then say hello. It shows up here within seconds."
        action={
          <ButtonLink href={sandboxHref} variant="primary" icon={<PhoneIcon />}>
            Open the Sandbox phone
          </ButtonLink>
        }
      />
    );
  }

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="border-b border-slate-200 p-3">
        <label className="relative block">
          <span className="sr-only">Search conversations</span>
          <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-slate-400" />
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search by name or number"
            aria-busy={searching}
            className="block h-9 w-full rounded-md border-0 bg-white pr-3 pl-8 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none"
          />
        </label>
      </div>
      <div className={cn("min-h-0 flex-1 overflow-y-auto transition-opacity", searching && "opacity-60")}>
        {conversations.length === 0 ? (
          <p role="status" className="px-4 py-8 text-center text-sm text-slate-500">
            {searching ? "Searching…" : <>No conversation matches “{term}”. Search looks at contact names and phone numbers.</>}
          </p>
        ) : (
          <ul aria-label="Conversations" className="divide-y divide-slate-100">
            {conversations.map((conversation) => (
              <ConversationRow
                key={conversation.id}
                projectId={projectId}
                conversation={conversation}
                channel={conversation.last_channel_id ? channelById.get(conversation.last_channel_id) : undefined}
                href={hrefFor(conversation.id)}
                selected={conversation.id === selectedId}
                isUnread={isUnread}
              />
            ))}
          </ul>
        )}
        {query.hasNextPage && (
          <div className="flex justify-center p-3">
            <Button size="sm" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
              Load more conversations
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
