"use client";

import { useMemo } from "react";
import { useConversations, type Conversation } from "@/lib/client/inbox";
import type { InboxFilters } from "@/lib/client/inbox-views";

const activityOf = (conversation: Conversation) => Date.parse(conversation.last_message_at ?? conversation.started_at);

/**
 * The conversations of the current view, each once (a conversation can move between pages while they
 * load), the most recent customer activity first. The page shares this list between the list pane
 * and the j / k shortcuts.
 */
export function useInboxList(projectId: string, filters: InboxFilters) {
  const query = useConversations(projectId, filters);
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
  return { query, conversations };
}

export type InboxList = ReturnType<typeof useInboxList>;
