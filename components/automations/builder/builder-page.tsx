"use client";

import { useMemo } from "react";
import { ErrorState, SkeletonGroup, SkeletonText } from "@/components/ui";
import { useAutomations } from "@/lib/client/automations";
import { useAutomation } from "@/lib/client/automations-write";
import { blankDraft, draftOf, duplicateDraft } from "../model/draft";
import { BuilderForm } from "./builder-form";

function Loading() {
  return (
    <SkeletonGroup label="Loading the automation">
      <SkeletonText lines={6} />
    </SkeletonGroup>
  );
}

/** /automations/new (blank, or `?from=<id>`: a copy of that automation) */
export function NewAutomationPage({ projectId, fromId }: { projectId: string; fromId: string | null }) {
  const source = useAutomation(projectId, fromId);
  const list = useAutomations(projectId);
  const taken = useMemo(() => new Set(list.data?.pages.flatMap((page) => page.data.map((automation) => automation.key)) ?? []), [list.data]);
  if (fromId !== null && (source.isPending || list.isPending)) return <Loading />;
  if (fromId !== null && source.isError) {
    return <ErrorState error={source.error} title="Couldn't load the automation to copy" onRetry={() => void source.refetch()} retrying={source.isFetching} />;
  }
  const initial = source.data ? duplicateDraft(source.data, taken) : blankDraft();
  return <BuilderForm key={fromId ?? "blank"} projectId={projectId} automation={null} initial={initial} />;
}

/** /automations/[automationId]: the stored automation in the builder. */
export function EditAutomationPage({ projectId, automationId }: { projectId: string; automationId: string }) {
  const automation = useAutomation(projectId, automationId);
  if (automation.isPending) return <Loading />;
  if (automation.isError) {
    return (
      <ErrorState
        error={automation.error}
        title="Couldn't load the automation (it may have been deleted, or removed by a config apply)"
        onRetry={() => void automation.refetch()}
        retrying={automation.isFetching}
      />
    );
  }
  // Keyed by what is stored: a config apply that changes it (seen on the next read) starts the form again from it.
  return (
    <BuilderForm
      key={`${automation.data.id}:${automation.data.updated_at}`}
      projectId={projectId}
      automation={automation.data}
      initial={draftOf(automation.data)}
    />
  );
}
