"use client";

import { useEffect } from "react";
import { ErrorState, PageHeader, Skeleton, SkeletonGroup } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useFunction, useFunctionDraft } from "@/lib/client/functions";
import { functionsPath } from "../paths";
import { preloadFunctionCodeEditor } from "./function-code-lazy";
import { FunctionWorkspace } from "./function-workspace";

/**
 * /projects/[id]/functions/[functionId]: loads the function with its source and its saved draft (the
 * editor opens on the draft), then the workspace. Monaco starts downloading at once, beside them.
 */
export function FunctionEditorPage({ projectId, functionId }: { projectId: string; functionId: string }) {
  const fn = useFunction(projectId, functionId);
  const draft = useFunctionDraft(projectId, functionId);
  const back = { href: functionsPath(projectId), label: "Functions" };
  useEffect(preloadFunctionCodeEditor, []);

  if (fn.isPending || draft.isPending) {
    return (
      <SkeletonGroup label="Loading the function">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="mt-3 h-7 w-64" />
        <Skeleton className="mt-8 h-[32rem] w-full" />
      </SkeletonGroup>
    );
  }
  if (fn.isError || draft.isError) {
    const failed = fn.isError ? fn : draft;
    const missing = isApiError(failed.error) && failed.error.status === 404;
    return (
      <>
        <PageHeader back={back} title="Function" />
        <ErrorState
          error={failed.error}
          title={missing ? "This function doesn't exist in this project" : "Couldn't load the function"}
          onRetry={missing ? undefined : () => void failed.refetch()}
          retrying={failed.isFetching}
        />
      </>
    );
  }
  // Keyed by function: another function starts a fresh working copy.
  return <FunctionWorkspace key={fn.data.id} projectId={projectId} fn={fn.data} saved={draft.data} />;
}
