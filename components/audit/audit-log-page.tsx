"use client";

import { useState } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { AuditIcon, Button, ButtonLink, EmptyState, ErrorState, PageHeader, RefreshIcon, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { useAuditEvents } from "@/lib/client/audit";
import { AuditFilters } from "./audit-filters";
import { AuditTable } from "./audit-table";
import { useAuditParams } from "./use-audit-params";

/** /projects/[id]/audit: who changed what in the project, newest first, filterable by action and actor. */
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
        description="Nothing in the last 90 days was done by this actor with this action. Try another action or actor."
        action={<Button onClick={() => update({ action: "", actor: "" })}>Clear filters</Button>}
      />
    ) : (
      <EmptyState
        icon={<AuditIcon />}
        title="Nothing recorded yet"
        description="Creating or revoking an API key, applying config, deploying or rolling back a function and rotating the webhook signing secret each leave an entry here: who did it, from which address and when. Entries are kept for 90 days."
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
        description="Who created or revoked an API key, applied config, deployed or rolled back a function, or rotated the webhook signing secret, in the dashboard or with an API key. Entries are kept for 90 days."
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
