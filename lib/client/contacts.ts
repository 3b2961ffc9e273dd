"use client";

import { useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import type { ContactErasedWire as ContactErased, ContactWire as Contact, ConversationWire as Conversation } from "@/lib/api/schemas/contacts";
import { projectApi } from "./api";
import { inboxKeys } from "./inbox";
import { projectQueryKey } from "./query";

export type { Contact, ContactErased };

const contactKeys = {
  contact: (projectId: string, id: string) => projectQueryKey(projectId, "contacts", id),
};

/** GET /contacts/{id}: the contact behind an inbox conversation. */
export function useContact(projectId: string, contactId: string | null) {
  return useQuery({
    queryKey: contactKeys.contact(projectId, contactId ?? ""),
    queryFn: ({ signal }) => projectApi<Contact>(projectId, `/contacts/${encodeURIComponent(contactId!)}`, { signal }),
    enabled: Boolean(contactId),
  });
}

/**
 * DELETE /contacts/{id} (contacts:erase: owners and admins). The contact's conversation is deleted by
 * the erasure, so every inbox query is refreshed and the contact's cached answer dropped.
 */
export function useEraseContact(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: string) => projectApi<ContactErased>(projectId, `/contacts/${encodeURIComponent(contactId)}`, { method: "DELETE" }),
    onSuccess: (_erased, contactId) => {
      queryClient.removeQueries({ queryKey: contactKeys.contact(projectId, contactId) });
      // The contact's conversation is gone with them: it leaves the cached lists at once, and its thread
      // and preview are not asked for again (the server would answer 404) while the page moves to the list.
      const gone: string[] = [];
      queryClient.setQueriesData<InfiniteData<ListEnvelope<Conversation>>>({ queryKey: inboxKeys.conversations(projectId) }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                data: page.data.filter((conversation) => {
                  if (conversation.contact_id !== contactId) return true;
                  gone.push(conversation.id);
                  return false;
                }),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({
        queryKey: inboxKeys.all(projectId),
        predicate: (query) => !gone.some((conversationId) => query.queryKey.includes(conversationId)),
      });
    },
  });
}
