"use client";

import { ErrorState, PageHeader, Skeleton, SkeletonGroup } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useFunction } from "@/lib/client/functions";
import { functionsPath } from "../paths";
import { FunctionWorkspace } from "./function-workspace";

/** /projects/[id]/functions/[functionId]: loads the function with its source, then the workspace. */
export function FunctionEditorPage({ projectId, functionId }: { projectId: string; functionId: string }) {
  const fn = useFunction(projectId, functionId);
  const back = { href: functionsPath(projectId), label: "Functions" };

  if (fn.isPending) {
    return (
      <SkeletonGroup label="Loading the function">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="mt-3 h-7 w-64" />
        <div className="mt-8 grid gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
          <Skeleton className="h-[32rem] w-full" />
          <Skeleton className="h-96 w-full" />
        </div>
      </SkeletonGroup>
    );
  }
  if (fn.isError) {
    const missing = isApiError(fn.error) && fn.error.status === 404;
    return (
      <>
        <PageHeader back={back} title="Function" />
        <ErrorState
          error={fn.error}
          title={missing ? "This function doesn't exist in this project" : "Couldn't load the function"}
          onRetry={missing ? undefined : () => void fn.refetch()}
          retrying={fn.isFetching}
        />
      </>
    );
  }
  // Keyed by function: another function starts a fresh working copy.
  return <FunctionWorkspace key={fn.data.id} projectId={projectId} fn={fn.data} />;
}
