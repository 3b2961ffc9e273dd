"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ConversationWire, MessageWire } from "@/lib/api/schemas/contacts";
import type { MessageSendRequestInput, MessageSendResponseWire as MessageSendResponse } from "@/lib/api/schemas/messages";
import { projectApi } from "./api";
import type { Channel } from "./channels";
import { conversationFilterQuery, filterKey, type InboxFilters } from "./inbox-views";
import { pollUnlessFollowed } from "./inbox-poll";
import { projectQueryKey } from "./query";

/**
 * The inbox's data: conversations, their messages, the project's channels, sending and handoff. The
 * shapes are the API's own (lib/api/schemas/contacts.ts, messages*.ts), imported as types only:
 * nothing of the server reaches the browser bundle.
 */

export type { MessageSendResponse };

/** The conversation with the team inbox's fields: assignee, who assigned it, the member's unread count, ai_can_answer. */
export type Conversation = ConversationWire;
export type MessagingWindow = Conversation["messaging_window"];

export type MessageFailure = NonNullable<MessageWire["failure"]>;

/** Message.media (spec): a cached file with a short-lived signed URL while it is available. */
export interface MessageMedia {
  id?: string;
  type?: string;
  url?: string | null;
  mime_type?: string | null;
  file_name?: string | null;
  file_size?: number | null;
  accessible?: boolean;
  status?: string;
  note?: string | null;
  caption?: string;
  voice?: boolean;
  animated?: boolean;
  [key: string]: unknown;
}

/** Message as the API sends it; media typed by the fields the inbox reads (the wire types it as an open record). */
export type Message = Omit<MessageWire, "media"> & { media: MessageMedia | null };
/** Outbound: the interactive object as sent; inbound: the reply the customer tapped. */
export type MessageInteractive = NonNullable<Message["interactive"]>;
export type MessageLocation = NonNullable<Message["location"]>;
export type MessageContactCard = NonNullable<Message["contacts"]>[number];

export type MediaType = "image" | "document" | "video" | "audio";

/** The content part of POST /messages that the inbox composer can produce (one of them per message). */
export type ComposedContent =
  | { text: string }
  | { media: { type: MediaType; link: string; caption?: string; filename?: string } }
  | { interactive: { type: "button"; body: string; buttons: { id: string; title: string }[] } }
  | { template: { id: string; components?: Record<string, unknown>[] } };

/** POST /messages as the inbox sends it (checked against the wire request where it is sent): a reply with composed content. */
export type MessageSendRequest = { channel_id: string; conversation_id: string } & ComposedContent;

// ------------------------------------------------------------------------------------------ keys

const inboxKey = (projectId: string, ...parts: string[]) => projectQueryKey(projectId, "inbox", ...parts);
export const inboxKeys = {
  all: (projectId: string) => inboxKey(projectId),
  /** Every conversation list; with `filters`, the list for that view, channel, window and search. */
  conversations: (projectId: string, filters?: InboxFilters) =>
    filters === undefined ? inboxKey(projectId, "conversations") : projectQueryKey(projectId, "inbox", "conversations", filterKey(filters)),
  /** GET /conversations/counts for the filters other than the view. */
  counts: (projectId: string, filters?: InboxFilters) =>
    filters === undefined ? inboxKey(projectId, "counts") : projectQueryKey(projectId, "inbox", "counts", { ...filterKey(filters), view: "" }),
  conversation: (projectId: string, id: string) => inboxKey(projectId, "conversation", id),
  messages: (projectId: string, id: string) => inboxKey(projectId, "messages", id),
  preview: (projectId: string, id: string) => inboxKey(projectId, "preview", id),
  channels: (projectId: string) => inboxKey(projectId, "channels"),
};

const CONVERSATION_PAGE = 50;
const MESSAGE_PAGE = 50;

/** Live updates: the open thread every 2 s, the list every 4 s. react-query pauses both while the tab is hidden. */
const THREAD_POLL_MS = 2_000;
const LIST_POLL_MS = 4_000;

function pageQuery(limit: number, startingAfter: string | undefined) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (startingAfter) params.set("starting_after", startingAfter);
  return params.toString();
}

function nextCursor<T extends { id: string }>(page: ListEnvelope<T>): string | undefined {
  return page.has_more ? page.data[page.data.length - 1]?.id : undefined;
}

// ------------------------------------------------------------------------------------ conversations

/**
 * GET /conversations, newest first, 50 a page; "Load more" fetches the next page. The filters (view,
 * channel, window, `q` = contact name or phone) run on the server, so they cover every conversation,
 * not just loaded pages. While a new filter loads, the previous results stay on screen.
 */
export function useConversations(projectId: string, filters: InboxFilters) {
  const filter = conversationFilterQuery(filters, { withView: true }).toString();
  return useInfiniteQuery({
    queryKey: inboxKeys.conversations(projectId, filters),
    queryFn: ({ pageParam, signal }) =>
      projectApi<ListEnvelope<Conversation>>(projectId, `/conversations?${pageQuery(CONVERSATION_PAGE, pageParam)}${filter ? `&${filter}` : ""}`, {
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    refetchInterval: pollUnlessFollowed(projectId, LIST_POLL_MS),
    placeholderData: keepPreviousData,
  });
}

/** One conversation (the open one may sit on a page of the list that is not loaded). */
export function useConversation(projectId: string, conversationId: string | null) {
  return useQuery({
    queryKey: inboxKeys.conversation(projectId, conversationId ?? ""),
    queryFn: ({ signal }) => projectApi<Conversation>(projectId, `/conversations/${encodeURIComponent(conversationId!)}`, { signal }),
    enabled: Boolean(conversationId),
    refetchInterval: pollUnlessFollowed(projectId, LIST_POLL_MS),
  });
}

/**
 * The newest message of a conversation, for the list's preview line. The key carries last_message_at,
 * so the 4 s list poll refetches a preview only when a customer wrote; the open thread keeps its own
 * preview fresh (useConversationMessages), which covers the operator's replies.
 */
export function useLastMessage(projectId: string, conversation: Conversation) {
  return useQuery({
    queryKey: [...inboxKeys.preview(projectId, conversation.id), conversation.last_message_at ?? ""],
    queryFn: async ({ signal }) => {
      const page = await projectApi<ListEnvelope<Message>>(projectId, `/conversations/${encodeURIComponent(conversation.id)}/messages?limit=1`, { signal });
      return page.data[0] ?? null;
    },
    staleTime: Infinity,
  });
}

// ----------------------------------------------------------------------------------------- messages

/** GET /conversations/{id}/messages, newest first from the API; `messages` is oldest first for display. */
export function useConversationMessages(projectId: string, conversation: Conversation | undefined) {
  const queryClient = useQueryClient();
  const conversationId = conversation?.id ?? "";
  const query = useInfiniteQuery({
    queryKey: inboxKeys.messages(projectId, conversationId),
    queryFn: ({ pageParam, signal }) =>
      projectApi<ListEnvelope<Message>>(projectId, `/conversations/${encodeURIComponent(conversationId)}/messages?${pageQuery(MESSAGE_PAGE, pageParam)}`, {
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
    enabled: Boolean(conversation),
    refetchInterval: pollUnlessFollowed(projectId, THREAD_POLL_MS),
  });

  const newest = query.data?.pages[0]?.data[0] ?? null;
  const lastMessageAt = conversation?.last_message_at ?? "";
  useEffect(() => {
    if (!conversationId || !query.data) return;
    queryClient.setQueryData([...inboxKeys.preview(projectId, conversationId), lastMessageAt], newest);
  }, [queryClient, projectId, conversationId, lastMessageAt, newest, query.data]);

  const messages = useMemo(() => flattenOldestFirst(query.data), [query.data]);
  return { ...query, messages };
}

function flattenOldestFirst(data: InfiniteData<ListEnvelope<Message>> | undefined): Message[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: Message[] = [];
  for (const page of data.pages) {
    for (const message of page.data) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      out.push(message);
    }
  }
  return out.reverse();
}

// ----------------------------------------------------------------------------------------- channels

/** GET /channels: the shared sandbox plus the organization's own (one page of 100 is plenty). */
export function useChannels(projectId: string) {
  return useQuery({
    queryKey: inboxKeys.channels(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<Channel>>(projectId, "/channels?limit=100", { signal }),
    staleTime: 60_000,
    select: (page) => page.data,
  });
}

// -------------------------------------------------------------------------------------------- writes

/**
 * POST /messages. `idempotencyKey` travels as the Idempotency-Key header: the caller makes one per
 * composed message and reuses it on retry, so a retry after a lost response never sends twice.
 */
export function useSendMessage(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: MessageSendRequest; idempotencyKey: string }) =>
      projectApi<MessageSendResponse>(projectId, "/messages", {
        method: "POST",
        body: request satisfies MessageSendRequestInput,
        headers: { "Idempotency-Key": idempotencyKey },
      }),
    onSuccess: (_response, { request }) => {
      void queryClient.invalidateQueries({ queryKey: inboxKeys.messages(projectId, request.conversation_id) });
    },
  });
}

/** POST /conversations/{id}/handoff {enabled, reason?}: the answer is the updated conversation. */
export function useSetHandoff(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conversationId, enabled, reason }: { conversationId: string; enabled: boolean; reason?: string }) =>
      projectApi<Conversation>(projectId, `/conversations/${encodeURIComponent(conversationId)}/handoff`, {
        method: "POST",
        body: reason ? { enabled, reason } : { enabled },
      }),
    onSuccess: (conversation) => putConversation(queryClient, projectId, conversation),
  });
}

/**
 * A write answered with the updated conversation: it replaces the cached copy and its rows in every
 * loaded list at once; the lists and counts are then asked again, since it may have left a view.
 */
export function putConversation(queryClient: QueryClient, projectId: string, conversation: Conversation) {
  queryClient.setQueryData(inboxKeys.conversation(projectId, conversation.id), conversation);
  queryClient.setQueriesData<InfiniteData<ListEnvelope<Conversation>>>({ queryKey: inboxKeys.conversations(projectId) }, (data) =>
    data
      ? { ...data, pages: data.pages.map((page) => ({ ...page, data: page.data.map((item) => (item.id === conversation.id ? conversation : item)) })) }
      : data,
  );
  void queryClient.invalidateQueries({ queryKey: inboxKeys.conversations(projectId) });
  void queryClient.invalidateQueries({ queryKey: inboxKeys.counts(projectId) });
}
