"use client";

import { useMemo } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { InboxIcon, PhoneIcon } from "@/components/ui/icons";
import { Skeleton, SkeletonGroup } from "@/components/ui/skeleton";
import { cn } from "@/components/ui/cn";
import type { Channel } from "@/lib/client/channels";
import { VIEW_LABELS, type InboxFilters } from "@/lib/client/inbox-views";
import { ConversationRow } from "./conversation-row";
import type { InboxList } from "./use-inbox-list";

export interface ConversationListProps {
  projectId: string;
  list: InboxList;
  filters: InboxFilters;
  selectedId: string | null;
  hrefFor: (conversationId: string) => string;
  channels: Channel[] | undefined;
  sandboxHref: string;
}

/**
 * The conversations of the current view. Views, filters and search run on the server
 * (GET /conversations?view=&channel_id=&window=&q=), so they cover every conversation, not only the
 * loaded pages.
 */
export function ConversationList({ projectId, list, filters, selectedId, hrefFor, channels, sandboxHref }: ConversationListProps) {
  const { query, conversations } = list;
  const loadingOther = query.isPlaceholderData && query.isFetching;
  const channelById = useMemo(() => new Map((channels ?? []).map((channel) => [channel.id, channel])), [channels]);
  const narrowed = Boolean(filters.channel || filters.window || filters.q.trim());

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
  if (conversations.length === 0 && filters.view === "all" && !narrowed) {
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
    <div className={cn("min-h-0 flex-1 overflow-y-auto transition-opacity", loadingOther && "opacity-60")} aria-busy={loadingOther}>
      {conversations.length === 0 ? (
        <p role="status" className="px-4 py-8 text-center text-sm text-slate-500">
          {loadingOther ? "Loading…" : <EmptyViewWords filters={filters} />}
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
  );
}

function EmptyViewWords({ filters }: { filters: InboxFilters }) {
  if (filters.q.trim()) return <>No conversation matches “{filters.q.trim()}”. Search looks at contact names and phone numbers.</>;
  const view = VIEW_LABELS[filters.view];
  return (
    <>
      Nothing in “{view}”{filters.channel || filters.window ? " with these filters" : ""}. Try the “All” view
      {filters.channel || filters.window ? " or clear the filters" : ""}.
    </>
  );
}
