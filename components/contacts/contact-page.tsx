"use client";

import { Card, CardBody, ErrorState, PageHeader, SkeletonGroup, SkeletonText } from "@/components/ui";
import { ContactDetails } from "@/components/inbox/contact-details";
import { contactLabel } from "@/components/inbox/format";
import { useContact } from "@/lib/client/contacts";

/** One contact on a page of its own (linked from the inbox's contact panel): the same details, full width. */
export function ContactPage({ projectId, contactId }: { projectId: string; contactId: string }) {
  const contact = useContact(projectId, contactId);
  const inbox = `/projects/${encodeURIComponent(projectId)}/inbox`;
  return (
    <>
      <PageHeader
        title={contact.data ? contactLabel(contact.data) : "Contact"}
        description="What this project knows about the customer: identifiers, opt-in, registration, conversations and flow submissions."
        back={{ href: inbox, label: "Inbox" }}
      />
      <Card>
        <CardBody>
          {contact.error ? (
            <ErrorState compact error={contact.error} onRetry={() => void contact.refetch()} retrying={contact.isFetching} />
          ) : !contact.data ? (
            <SkeletonGroup label="Loading contact">
              <SkeletonText lines={6} />
            </SkeletonGroup>
          ) : (
            <ContactDetails projectId={projectId} contact={contact.data} />
          )}
        </CardBody>
      </Card>
    </>
  );
}
