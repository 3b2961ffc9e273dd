"use client";

import { useState } from "react";
import { Button, EmptyState, ErrorState, FunctionsIcon, PageHeader, PlusIcon, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { useFunctionStats, useFunctions } from "@/lib/client/functions";
import { can, useCurrentProject } from "@/lib/client/me";
import { FunctionsTable } from "./functions-table";
import { NewFunctionDialog } from "./new-function-dialog";

/** /projects/[id]/functions: the project's hosted functions and "New function". */
export function FunctionsPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const functions = useFunctions(projectId);
  const stats = useFunctionStats(projectId);
  const [creating, setCreating] = useState(false);
  const all = functions.data?.pages.flatMap((page) => page.data) ?? [];

  const newButton = canWrite && (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
      New function
    </Button>
  );

  return (
    <div>
      <PageHeader
        title="Functions"
        description="Your own JavaScript or TypeScript, run by svc in a sandbox: from automations, as agent and MCP tools, or by API. Deploy, test and read every run's logs here."
        actions={newButton}
      />
      {functions.isPending ? (
        <SkeletonGroup label="Loading functions">
          <SkeletonRows rows={4} columns={6} />
        </SkeletonGroup>
      ) : functions.isError ? (
        <ErrorState error={functions.error} title="Couldn't load functions" onRetry={() => void functions.refetch()} retrying={functions.isFetching} />
      ) : all.length === 0 ? (
        <EmptyState
          icon={<FunctionsIcon />}
          title="No functions yet"
          description={
            canWrite
              ? "Create one, start from a template in the editor, deploy it and run a test. Secrets and a key-value store come with it."
              : "A developer or admin of this organization can create one."
          }
          action={newButton}
        />
      ) : (
        <>
          <FunctionsTable projectId={projectId} functions={all} stats={stats.data} statsLoading={stats.isPending} />
          {functions.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button onClick={() => void functions.fetchNextPage()} loading={functions.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
      {creating && <NewFunctionDialog projectId={projectId} onClose={() => setCreating(false)} />}
    </div>
  );
}
