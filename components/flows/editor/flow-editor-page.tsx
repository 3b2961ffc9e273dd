"use client";

import { projectPath } from "@/components/shell/nav-links";
import { ErrorState, PageHeader, Skeleton, SkeletonGroup } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useFlow } from "@/lib/client/flows";
import { FlowEditor } from "./flow-editor";

/** /projects/[id]/flows/[flowId]: loads the flow with its draft and Flow JSON, then the editor. */
export function FlowEditorPage({ projectId, flowId }: { projectId: string; flowId: string }) {
  const flow = useFlow(projectId, flowId);
  const back = { href: projectPath(projectId, "flows"), label: "Flows" };

  if (flow.isPending) {
    return (
      <SkeletonGroup label="Loading the flow">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="mt-3 h-7 w-64" />
        <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <Skeleton className="h-96 w-full" />
          <Skeleton className="h-96 w-full" />
        </div>
      </SkeletonGroup>
    );
  }
  if (flow.isError) {
    const missing = isApiError(flow.error) && flow.error.status === 404;
    return (
      <>
        <PageHeader back={back} title="Flow" />
        <ErrorState
          error={flow.error}
          title={missing ? "This flow doesn't exist in this project" : "Couldn't load the flow"}
          onRetry={missing ? undefined : () => void flow.refetch()}
          retrying={flow.isFetching}
        />
      </>
    );
  }
  // Keyed by flow: another flow starts a fresh working copy.
  return <FlowEditor key={flow.data.id} projectId={projectId} flow={flow.data} />;
}
