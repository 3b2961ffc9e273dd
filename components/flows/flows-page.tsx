"use client";

import { useState } from "react";
import { Button, EmptyState, ErrorState, FlowsIcon, PageHeader, PlusIcon, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { useFlows } from "@/lib/client/flows";
import { can, useCurrentProject } from "@/lib/client/me";
import { FlowsTable } from "./flows-table";
import { NewFlowDialog } from "./new-flow-dialog";

/** /projects/[id]/flows: the project's WhatsApp Flows, grouped by config key, and "New flow". */
export function FlowsPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const flows = useFlows(projectId);
  const [creating, setCreating] = useState(false);
  const all = flows.data?.pages.flatMap((page) => page.data) ?? [];

  const newButton = canWrite && (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
      New flow
    </Button>
  );

  return (
    <div>
      <PageHeader
        title="Flows"
        description="Multi-screen forms your customers fill in inside WhatsApp. Build one, publish it, send it; each completion arrives as a flow.completed webhook."
        actions={newButton}
      />
      {flows.isPending ? (
        <SkeletonGroup label="Loading flows">
          <SkeletonRows rows={4} columns={6} />
        </SkeletonGroup>
      ) : flows.isError ? (
        <ErrorState error={flows.error} title="Couldn't load flows" onRetry={() => void flows.refetch()} retrying={flows.isFetching} />
      ) : all.length === 0 ? (
        <EmptyState
          icon={<FlowsIcon />}
          title="No flows yet"
          description={
            canWrite
              ? "Start from a two-screen form, shape it in the builder, then publish and send it to a sandbox tester."
              : "A developer or admin of this organization can create one."
          }
          action={newButton}
        />
      ) : (
        <>
          <FlowsTable projectId={projectId} flows={all} />
          {flows.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button onClick={() => void flows.fetchNextPage()} loading={flows.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
      {creating && <NewFlowDialog projectId={projectId} onClose={() => setCreating(false)} />}
    </div>
  );
}
