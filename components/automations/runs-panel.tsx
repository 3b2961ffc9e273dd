"use client";

import { useState } from "react";
import { Button, ErrorState, Select, SkeletonGroup, SkeletonText } from "@/components/ui";
import { RUN_STATUSES, useAutomationRuns, type Automation, type AutomationRunStatus } from "@/lib/client/automations";
import { RUN_STATUS_COPY, RunItem } from "./run-item";

/** An automation's recent runs, newest first, filtered by status; followed while the page is open. */
export function RunsPanel({ projectId, automation }: { projectId: string; automation: Automation }) {
  const [status, setStatus] = useState<AutomationRunStatus | "">("");
  const runs = useAutomationRuns(projectId, automation.id, status || undefined);
  const all = runs.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    // Named with the automation: with several on the page, "Recent runs" alone would name several regions alike.
    <section aria-label={`Recent runs of ${automation.name}`} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-[13px] font-semibold text-slate-800">Recent runs</h3>
        <Select
          aria-label={`Status of runs of ${automation.name}`}
          value={status}
          onChange={(event) => setStatus(event.target.value as AutomationRunStatus | "")}
          className="w-44"
        >
          <option value="">All statuses</option>
          {RUN_STATUSES.map((value) => (
            <option key={value} value={value}>
              {RUN_STATUS_COPY[value].label}
            </option>
          ))}
        </Select>
      </div>
      {runs.isPending ? (
        <SkeletonGroup label="Loading runs">
          <SkeletonText lines={2} />
        </SkeletonGroup>
      ) : runs.isError ? (
        <ErrorState compact error={runs.error} title="Couldn't load runs" onRetry={() => void runs.refetch()} retrying={runs.isFetching} />
      ) : all.length === 0 ? (
        <p className="rounded-md bg-slate-50 px-3 py-2.5 text-[13px] text-slate-500 ring-1 ring-slate-200">
          {status ? `No ${RUN_STATUS_COPY[status].label.toLowerCase()} runs.` : "No runs yet. A run starts when an inbound message matches the trigger."}
        </p>
      ) : (
        <>
          <ul aria-label={`Runs of ${automation.name}`} className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200">
            {all.map((run) => (
              <RunItem key={run.id} projectId={projectId} run={run} steps={automation.steps} />
            ))}
          </ul>
          {runs.hasNextPage && (
            <div className="flex justify-center">
              <Button size="sm" onClick={() => void runs.fetchNextPage()} loading={runs.isFetchingNextPage}>
                Load more runs
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
