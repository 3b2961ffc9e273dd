"use client";

import Link from "next/link";
import { Badge, ErrorState, SkeletonGroup, SkeletonText, Spinner, Time } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { isApiError } from "@/lib/client/api";
import { useMessageAutomations, type AutomationEvaluation } from "@/lib/client/automations-runs";
import { RESULT_COPY, evaluationHeadline, inPriorityOrder, nextStepFor } from "../model/evaluation-words";

const linkClass = "font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600";

export const automationPath = (projectId: string, automationId: string) => projectPath(projectId, `automations/${encodeURIComponent(automationId)}`);

/** The evaluation in words: the headline, then each automation in priority order with its result, reason and what to do. */
export function EvaluationView({ projectId, evaluation }: { projectId: string; evaluation: AutomationEvaluation }) {
  const rows = inPriorityOrder(evaluation.automations);
  // The message's own reason (routing, handoff, …) is said once, at the top, not on every row.
  const generalNext = nextStepFor(evaluation.reason);
  return (
    <div className="space-y-3" data-evaluation-outcome={evaluation.outcome}>
      <div>
        <p className="text-sm font-semibold text-slate-900" role="status">
          {evaluationHeadline(evaluation)}
        </p>
        <p className="mt-0.5 text-[12px] text-slate-500">
          {evaluation.routing_mode ? `Routing ${evaluation.routing_mode} when it came` : "Routing not recorded"}
          {evaluation.decided_at && (
            <>
              {" · decided "}
              <Time value={evaluation.decided_at} />
            </>
          )}
        </p>
        <p className="mt-1 text-[13px] text-slate-700">{evaluation.detail}</p>
        {generalNext && <p className="mt-0.5 text-[13px] text-slate-500">{generalNext}</p>}
      </div>
      {rows.length > 0 && (
        <ol aria-label="Automations considered, in priority order" className="divide-y divide-slate-100 rounded-md bg-white ring-1 ring-slate-200">
          {rows.map((row) => {
            const copy = RESULT_COPY[row.result] ?? { label: row.result, tone: "neutral" as const };
            const next = row.result === "ran" || row.reason === evaluation.reason ? null : nextStepFor(row.reason);
            return (
              <li key={row.automation_id} className="px-3 py-2.5" data-automation-key={row.key} data-result={row.result} aria-label={row.name}>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[13px]">
                  <span className="text-slate-500 tabular-nums">{row.position + 1}.</span>
                  <Link className={linkClass} href={automationPath(projectId, row.automation_id)}>
                    {row.name}
                  </Link>
                  <code className="font-mono text-[12px] text-slate-500">{row.key}</code>
                  <Badge tone={copy.tone} dot>
                    {copy.label}
                  </Badge>
                  {!row.active && <Badge>Off</Badge>}
                </div>
                <p className="mt-0.5 text-[13px] text-slate-800" data-reason={row.reason ?? undefined}>
                  {row.detail}
                </p>
                {next && <p className="mt-0.5 text-[12px] text-slate-500">{next}</p>}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

/** GET /messages/{id}/automations for one message, loaded and followed until decided. */
export function WhyPanel({ projectId, messageId, linkRun = true }: { projectId: string; messageId: string; linkRun?: boolean }) {
  const evaluation = useMessageAutomations(projectId, messageId);
  if (evaluation.isPending) {
    return (
      <SkeletonGroup label="Loading the evaluation">
        <SkeletonText lines={3} />
      </SkeletonGroup>
    );
  }
  if (evaluation.isError) {
    const error = evaluation.error;
    const title =
      isApiError(error) && error.status === 422
        ? "Only a message from a customer is evaluated"
        : isApiError(error) && error.status === 404
          ? "No such message in this project"
          : "Couldn't load why";
    return <ErrorState compact error={error} title={title} onRetry={() => void evaluation.refetch()} retrying={evaluation.isFetching} />;
  }
  return (
    <div className="space-y-2">
      <EvaluationView projectId={projectId} evaluation={evaluation.data} />
      {evaluation.data.decided_at === null && <Spinner label="Waiting for the decision" />}
      {linkRun && evaluation.data.run_id && (
        <p className="text-[13px]">
          <Link className={linkClass} href={`${projectPath(projectId, "automations/runs")}/${encodeURIComponent(evaluation.data.run_id)}`}>
            Open the run, step by step
          </Link>
        </p>
      )}
    </div>
  );
}
