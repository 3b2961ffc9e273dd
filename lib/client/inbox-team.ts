"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ConversationCountsWire, NoteWire } from "@/lib/api/schemas/inbox";
import { projectApi } from "./api";
import { inboxKeys, putConversation, type Conversation } from "./inbox";
import { conversationFilterQuery, type InboxFilters } from "./inbox-views";
import { pollUnlessFollowed } from "./inbox-poll";
import { projectQueryKey } from "./query";

/**
 * The team inbox's writes and side data (issue 37): view counts, assignment, private notes and the
 * member's read state. Types follow the API's wire; the server decides every rule (who may be
 * assigned, what "unread" means), the browser only shows the answers.
 */

/** GET /conversations/counts: one number per view for the other filters; mine and unread are null for an API key. */
export type ConversationCounts = ConversationCountsWire;
/** A private note on a conversation: shown to teammates in the thread, never sent to the customer. */
export type Note = NoteWire;

export const NOTE_MAX = 4000;

const notesKey = (projectId: string, conversationId: string) => projectQueryKey(projectId, "inbox", "notes", conversationId);

/** The counts beside each view, refreshed by live events (polled only while the stream is down). */
export function useConversationCounts(projectId: string, filters: InboxFilters) {
  const query = conversationFilterQuery(filters, { withView: false }).toString();
  return useQuery({
    queryKey: inboxKeys.counts(projectId, filters),
    queryFn: ({ signal }) => projectApi<ConversationCounts>(projectId, `/conversations/counts${query ? `?${query}` : ""}`, { signal }),
    refetchInterval: pollUnlessFollowed(projectId, 5_000),
  });
}

/**
 * POST /conversations/{id}/assignment. `assigneeId` null unassigns; `handoff: false` keeps automation
 * answering while a person is assigned (otherwise the server turns handoff on).
 */
export function useAssignConversation(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conversationId, assigneeId, handoff }: { conversationId: string; assigneeId: string | null; handoff?: boolean }) =>
      projectApi<Conversation>(projectId, `/conversations/${encodeURIComponent(conversationId)}/assignment`, {
        method: "POST",
        body: handoff === undefined ? { assignee_id: assigneeId } : { assignee_id: assigneeId, handoff },
      }),
    onSuccess: (conversation) => putConversation(queryClient, projectId, conversation),
  });
}

/** GET /conversations/{id}/notes, oldest first; one page of 100 covers a thread's notes. */
export function useConversationNotes(projectId: string, conversationId: string) {
  return useQuery({
    queryKey: notesKey(projectId, conversationId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<Note>>(projectId, `/conversations/${encodeURIComponent(conversationId)}/notes?limit=100`, { signal }),
    select: (page) => page.data,
    refetchInterval: pollUnlessFollowed(projectId, 5_000),
  });
}

export function useAddNote(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conversationId, body }: { conversationId: string; body: string }) =>
      projectApi<Note>(projectId, `/conversations/${encodeURIComponent(conversationId)}/notes`, { method: "POST", body: { body } }),
    onSuccess: (note) => {
      queryClient.setQueryData<ListEnvelope<Note>>(notesKey(projectId, note.conversation_id), (page) =>
        page && !page.data.some((item) => item.id === note.id) ? { ...page, data: [...page.data, note] } : page,
      );
      void queryClient.invalidateQueries({ queryKey: notesKey(projectId, note.conversation_id) });
    },
  });
}

/**
 * POST /api/dashboard/projects/{id}/conversations/{cid}/read: the signed-in member has read the thread
 * up to now. It answers the conversation (unread_count 0 for this member), which replaces the cached
 * copies; the lists and counts follow from the server.
 */
export function useMarkRead(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) =>
      projectApi<Conversation>(projectId, `/conversations/${encodeURIComponent(conversationId)}/read`, { method: "POST" }),
    onSuccess: (conversation) => putConversation(queryClient, projectId, conversation),
  });
}
