"use client";

import { useState } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { AuditIcon, Button, ButtonLink, EmptyState, ErrorState, PageHeader, RefreshIcon, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { useAuditEvents } from "@/lib/client/audit";
import { AuditFilters } from "./audit-filters";
import { AuditTable } from "./audit-table";
import { NO_FILTERS, useAuditParams } from "./use-audit-params";

/** /projects/[id]/audit: who changed what in the project, newest first, filterable by action, target type and actor. */
export function AuditLogPage({ projectId }: { projectId: string }) {
  const { params, filters, update, hasFilters } = useAuditParams();
  const events = useAuditEvents(projectId, filters);
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];
  // Only a refresh the operator asked for shows a spinner, not the refetch on focus.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void events.refetch().finally(() => setRefreshing(false));
  };

  let content;
  if (events.isPending) {
    content = (
      <SkeletonGroup label="Loading the audit log">
        <SkeletonRows rows={6} columns={5} />
      </SkeletonGroup>
    );
  } else if (events.isError) {
    content = <ErrorState error={events.error} title="Couldn't load the audit log" onRetry={() => void events.refetch()} retrying={events.isFetching} />;
  } else if (rows.length === 0) {
    content = hasFilters ? (
      <EmptyState
        icon={<AuditIcon />}
        title="No entries match these filters"
        description="Nothing in the last 90 days matches this action, target and actor. Try another filter."
        action={<Button onClick={() => update(NO_FILTERS)}>Clear filters</Button>}
      />
    ) : (
      <EmptyState
        icon={<AuditIcon />}
        title="Nothing recorded yet"
        description="Every sensitive change leaves an entry here: API keys and members, secrets, the webhook, channels and routing, deploys, publishing and sending, erasing a contact. Who did it, from which address and when; kept for 90 days."
        action={<ButtonLink href={projectPath(projectId, "keys")}>Open API keys</ButtonLink>}
      />
    );
  } else {
    content = (
      <>
        <AuditTable projectId={projectId} events={rows} />
        {events.hasNextPage && (
          <div className="mt-4 flex justify-center">
            <Button onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
              Load more
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <div className="space-y-4">
      <PageHeader
        className="mb-2"
        title="Audit log"
        description="Who changed access, secrets, the webhook, channels and routing, or deployed, published, sent or erased something, in the dashboard or with an API key. Entries are kept for 90 days."
        actions={
          <Button variant="ghost" icon={<RefreshIcon />} onClick={refresh} loading={refreshing}>
            Refresh
          </Button>
        }
      />
      <AuditFilters projectId={projectId} params={params} entries={rows} onChange={update} hasFilters={hasFilters} />
      {content}
    </div>
  );
}
