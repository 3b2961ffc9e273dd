"use client";

import { useState } from "react";
import { Badge, Button, Dialog, ErrorState, SkeletonGroup, SkeletonText, Time, TrashIcon, UsersIcon } from "@/components/ui";
import { useContact } from "@/lib/client/contacts";
import { EraseContactDialog } from "./erase-contact-dialog";

export interface ContactPanelProps {
  projectId: string;
  contactId: string;
  listHref: string;
  /** Owners and admins only (contacts:erase). */
  canErase: boolean;
}

/** The header's "Contact" button: the customer's details, and for admins the erasure of their data. */
export function ContactPanel({ projectId, contactId, listHref, canErase }: ContactPanelProps) {
  const [open, setOpen] = useState(false);
  const [erasing, setErasing] = useState(false);
  const contact = useContact(projectId, open || erasing ? contactId : null);

  return (
    <>
      <Button size="sm" icon={<UsersIcon />} onClick={() => setOpen(true)}>
        Contact
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Contact" description="What this project knows about the customer.">
        {contact.error ? (
          <ErrorState compact error={contact.error} onRetry={() => void contact.refetch()} retrying={contact.isFetching} />
        ) : !contact.data ? (
          <SkeletonGroup label="Loading contact">
            <SkeletonText lines={4} />
          </SkeletonGroup>
        ) : (
          <>
            <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-2 text-sm">
              <Detail term="Name">{contact.data.name ?? "—"}</Detail>
              <Detail term="Phone">{contact.data.phone ? <span className="font-mono">{contact.data.phone}</span> : "—"}</Detail>
              {contact.data.user_id && <Detail term="User id">{contact.data.user_id}</Detail>}
              <Detail term="Reference">{contact.data.reference_id ?? "—"}</Detail>
              <Detail term="Opt-in">
                {contact.data.opt_in ? (
                  <Badge tone={contact.data.opt_in.status === "active" ? "success" : "neutral"}>{contact.data.opt_in.status}</Badge>
                ) : (
                  "none"
                )}
              </Detail>
              <Detail term="First seen">
                <Time value={contact.data.created_at} />
              </Detail>
              <Detail term="Contact id">
                <span className="font-mono text-xs">{contact.data.id}</span>
              </Detail>
            </dl>
            {canErase && (
              <div className="mt-6 rounded-md p-3 ring-1 ring-red-200">
                <p className="text-sm font-medium text-slate-900">Erase personal data</p>
                <p className="mt-1 text-xs text-slate-600">
                  For a customer&apos;s deletion request: removes their data from this project only. Other projects keep theirs.
                </p>
                <Button
                  className="mt-3"
                  size="sm"
                  variant="danger"
                  icon={<TrashIcon />}
                  onClick={() => {
                    setOpen(false);
                    setErasing(true);
                  }}
                >
                  Erase personal data
                </Button>
              </div>
            )}
          </>
        )}
      </Dialog>
      {contact.data && <EraseContactDialog projectId={projectId} contact={contact.data} open={erasing} onClose={() => setErasing(false)} listHref={listHref} />}
    </>
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}
