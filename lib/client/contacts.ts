"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ContactErasedWire as ContactErased, ContactWire as Contact } from "@/lib/api/schemas/contacts";
import { projectApi } from "./api";
import { inboxKeys } from "./inbox";
import { projectQueryKey } from "./query";

export type { Contact, ContactErased };

export const contactKeys = {
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
      void queryClient.invalidateQueries({ queryKey: inboxKeys.all(projectId) });
    },
  });
}
