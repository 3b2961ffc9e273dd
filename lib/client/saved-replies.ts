"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { SavedReplyRenderWire, SavedReplyWire } from "@/lib/api/schemas/inbox";
import { SAVED_REPLY_SHORTCUT, SAVED_REPLY_VARIABLES as SAVED_REPLY_VARIABLE_NAMES, unknownVariables } from "@/lib/shared/inbox";
import { projectApi } from "./api";
import { projectQueryKey } from "./query";

/**
 * Saved replies (issue 37 item 4): canned answers per project, picked in the inbox composer by typing
 * `/` and managed on the Saved replies page. The server fills the variables (POST …/render), so the
 * browser never guesses a contact's name or phone.
 */

export type SavedReply = SavedReplyWire;
export type SavedReplyRender = SavedReplyRenderWire;
export type SavedReplyInput = Pick<SavedReply, "shortcut" | "title" | "body">;

/** The variables the server fills, as they are written in a body (the settings page's hint). */
export const SAVED_REPLY_VARIABLES = SAVED_REPLY_VARIABLE_NAMES.map((name) => `{{${name}}}`);
export const SAVED_REPLY_BODY_MAX = 4096;
export { SAVED_REPLY_SHORTCUT as SHORTCUT_PATTERN, unknownVariables };

const savedReplyKeys = {
  all: (projectId: string) => projectQueryKey(projectId, "saved-replies"),
};

/** GET /saved-replies: one page of 100 (a team keeps a few dozen at most). */
export function useSavedReplies(projectId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: savedReplyKeys.all(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<SavedReply>>(projectId, "/saved-replies?limit=100", { signal }),
    select: (page) => page.data,
    staleTime: 30_000,
    enabled,
  });
}

export function useCreateSavedReply(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SavedReplyInput) => projectApi<SavedReply>(projectId, "/saved-replies", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReplyKeys.all(projectId) }),
  });
}

export function useUpdateSavedReply(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: SavedReplyInput & { id: string }) =>
      projectApi<SavedReply>(projectId, `/saved-replies/${encodeURIComponent(id)}`, { method: "PATCH", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReplyKeys.all(projectId) }),
  });
}

export function useDeleteSavedReply(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => projectApi<unknown>(projectId, `/saved-replies/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReplyKeys.all(projectId) }),
  });
}

/** POST /saved-replies/{id}/render for a conversation: the text with the contact's and the member's values. */
export function useRenderSavedReply(projectId: string) {
  return useMutation({
    mutationFn: ({ id, conversationId }: { id: string; conversationId: string }) =>
      projectApi<SavedReplyRender>(projectId, `/saved-replies/${encodeURIComponent(id)}/render`, { method: "POST", body: { conversation_id: conversationId } }),
  });
}

/**
 * The picker's filter: replies whose shortcut starts with the typed text first, then those whose
 * shortcut or title contains it. Case-insensitive; an empty filter keeps the server's order.
 */
export function filterSavedReplies(replies: readonly SavedReply[], typed: string): SavedReply[] {
  const term = typed.trim().toLowerCase();
  if (!term) return [...replies];
  const starts = replies.filter((reply) => reply.shortcut.toLowerCase().startsWith(term));
  const contains = replies.filter(
    (reply) => !starts.includes(reply) && (reply.shortcut.toLowerCase().includes(term) || reply.title.toLowerCase().includes(term)),
  );
  return [...starts, ...contains];
}
