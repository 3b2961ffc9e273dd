"use client";

import { useEffect, useState } from "react";
import { Button, CloseIcon, ErrorState, SkeletonGroup, SkeletonText, TrashIcon, UsersIcon } from "@/components/ui";
import { useContact } from "@/lib/client/contacts";
import { ContactDetails } from "./contact-details";
import { EraseContactDialog } from "./erase-contact-dialog";

/**
 * Open beside the thread from the start where the screen leaves the thread room for it (2xl, with the
 * sidebar and the list); narrower screens open it over the thread with the Contact button.
 */
export function useContactPanelOpen() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (window.matchMedia("(min-width: 1536px)").matches) setOpen(true);
  }, []);
  return [open, setOpen] as const;
}

export function ContactPanelToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <Button size="sm" icon={<UsersIcon />} aria-expanded={open} aria-controls={open ? "contact-panel" : undefined} onClick={onToggle}>
      Contact
    </Button>
  );
}

export interface ContactPanelProps {
  projectId: string;
  contactId: string;
  conversationId: string;
  listHref: string;
  /** Owners and admins only (contacts:erase). */
  canErase: boolean;
  onClose: () => void;
  onErased: () => void;
}

/** The customer beside the thread: who they are, where they wrote, what they submitted; for admins the erasure. */
export function ContactPanel({ projectId, contactId, conversationId, listHref, canErase, onClose, onErased }: ContactPanelProps) {
  const [erasing, setErasing] = useState(false);
  const contact = useContact(projectId, contactId);

  return (
    <aside
      id="contact-panel"
      aria-label="Contact"
      className="absolute inset-y-0 right-0 z-10 flex w-80 max-w-full flex-col border-l border-slate-200 bg-white shadow-lg 2xl:static 2xl:shadow-none"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2.5">
        <h2 className="text-sm font-semibold text-slate-900">Contact</h2>
        <Button size="icon" variant="ghost" aria-label="Close the contact panel" onClick={onClose}>
          <CloseIcon />
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        {contact.error ? (
          <ErrorState compact error={contact.error} onRetry={() => void contact.refetch()} retrying={contact.isFetching} />
        ) : !contact.data ? (
          <SkeletonGroup label="Loading contact">
            <SkeletonText lines={6} />
          </SkeletonGroup>
        ) : (
          <>
            <ContactDetails projectId={projectId} contact={contact.data} currentConversationId={conversationId} />
            {canErase && (
              <div className="mt-6 rounded-md p-3 ring-1 ring-red-200">
                <p className="text-sm font-medium text-slate-900">Erase personal data</p>
                <p className="mt-1 text-xs text-slate-600">
                  For a customer&apos;s deletion request: removes their data, conversation and notes from this project only. Other projects keep theirs.
                </p>
                <Button className="mt-3" size="sm" variant="danger" icon={<TrashIcon />} onClick={() => setErasing(true)}>
                  Erase personal data
                </Button>
              </div>
            )}
          </>
        )}
      </div>
      {contact.data && (
        <EraseContactDialog
          projectId={projectId}
          contact={contact.data}
          open={erasing}
          onClose={() => setErasing(false)}
          listHref={listHref}
          onErased={onErased}
        />
      )}
    </aside>
  );
}
