"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { Badge, ChevronRightIcon, Time, type BadgeTone } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { JsonTree } from "@/components/webhooks/json-tree";
import type { AutomationRun, AutomationRunStatus, AutomationStep } from "@/lib/client/automations";
import { runPosition } from "./model/summaries";
import { RunSteps } from "./runs/run-steps";

const linkClass = "text-[13px] font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600";

export const RUN_STATUS_COPY: Record<AutomationRunStatus, { label: string; tone: BadgeTone }> = {
  RUNNING: { label: "Running", tone: "info" },
  WAITING: { label: "Waiting", tone: "accent" },
  COMPLETED: { label: "Completed", tone: "success" },
  FAILED: { label: "Failed", tone: "danger" },
  CANCELLED: { label: "Cancelled", tone: "neutral" },
  TIMED_OUT: { label: "Timed out", tone: "warning" },
};

export function RunStatusBadge({ status }: { status: AutomationRunStatus }) {
  const copy = RUN_STATUS_COPY[status] ?? { label: status, tone: "neutral" };
  return (
    <span data-run-status={status}>
      <Badge tone={copy.tone} dot>
        {copy.label}
      </Badge>
    </span>
  );
}

/**
 * One run: status, when, where it stands (step N: what that step does), its error, its steps one by
 * one (outcome, timing, variables after, what each produced) and links to the run, the message that
 * started it (why it fired) and the conversation.
 */
export function RunItem({ projectId, run, steps }: { projectId: string; run: AutomationRun; steps: readonly AutomationStep[] }) {
  const variables = Object.keys(run.variables ?? {}).length;
  return (
    <li className="space-y-1.5 px-3 py-2.5" data-run-id={run.id} aria-label={`Run ${run.id}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[13px]">
        <RunStatusBadge status={run.status} />
        <span className="text-slate-500">
          Started <Time value={run.started_at} />
          {run.ended_at && (
            <>
              {" · ended "}
              <Time value={run.ended_at} />
            </>
          )}
        </span>
        <span className="ml-auto flex flex-wrap gap-x-3">
          <Link href={`${projectPath(projectId, "automations/runs")}/${encodeURIComponent(run.id)}`} className={linkClass}>
            Open run
          </Link>
          {run.trigger_message_id && (
            <Link href={projectPath(projectId, `automations/messages/${encodeURIComponent(run.trigger_message_id)}`)} className={linkClass}>
              Why it fired
            </Link>
          )}
          {run.conversation_id && (
            <Link href={`${projectPath(projectId, "inbox")}?c=${encodeURIComponent(run.conversation_id)}`} className={linkClass}>
              Open conversation
            </Link>
          )}
        </span>
      </div>
      <p className="text-[13px] text-slate-700">
        {runPosition(run, steps)}
        {run.status === "WAITING" && run.wait_until && (
          <span className="text-slate-500">
            {" · until "}
            <Time value={run.wait_until} format="absolute" />
          </span>
        )}
      </p>
      {run.error && (
        <p className="text-[13px] text-red-700" role="note">
          <code className="mr-1.5 rounded-sm bg-red-50 px-1 font-mono text-[12px]">{run.error.code}</code>
          {run.error.message}
        </p>
      )}
      {run.steps && run.steps.length > 0 && (
        <Fold label={`Steps (${run.steps.length})`}>
          <RunSteps projectId={projectId} run={run} definition={steps} />
        </Fold>
      )}
      {variables > 0 && (
        <Fold label={`Variables (${variables})`}>
          <div className="overflow-x-auto rounded-md bg-slate-50 px-2 py-2 ring-1 ring-slate-200">
            <JsonTree value={run.variables} />
          </div>
        </Fold>
      )}
    </li>
  );
}

function Fold({ label, children }: { label: string; children: ReactNode }) {
  return (
    <details className="group text-[13px] [&>summary::-webkit-details-marker]:hidden">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600">
        <ChevronRightIcon size={12} className="transition-transform group-open:rotate-90 motion-reduce:transition-none" />
        {label}
      </summary>
      <div className="mt-1.5">{children}</div>
    </details>
  );
}
