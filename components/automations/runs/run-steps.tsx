"use client";

import Link from "next/link";
import { Badge, Time } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { functionPath } from "@/components/functions/paths";
import type { AutomationStep, StepKind } from "@/lib/client/automations";
import type { AutomationRunDetail, AutomationRunStep } from "@/lib/client/automations-runs";
import { useFunctions } from "@/lib/client/functions";
import { STEP_KIND_LABELS, runPosition, stepSummary } from "../model/summaries";
import { durationLabel, stepStatusCopy, stepsWithBefore, variableChanges } from "../model/run-steps";

const kindLabel = (type: string | null) => (type ? (STEP_KIND_LABELS[type as StepKind] ?? type) : "Removed step");

const linkClass = "font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600";

function valueText(value: unknown): string {
  if (typeof value === "string") return value === "" ? "(empty)" : value;
  return JSON.stringify(value) ?? String(value);
}

function Variables({ after, before }: { after: Record<string, unknown> | null; before: Record<string, unknown> | null }) {
  const changes = variableChanges(after, before);
  if (!changes.length) return null;
  return (
    <dl className="mt-1.5 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 rounded-md bg-slate-50 px-2.5 py-1.5 text-[12px] ring-1 ring-slate-200">
      {changes.map(({ name, value, changed }) => (
        <div key={name} className="contents">
          <dt className="font-mono text-slate-600">
            vars.{name}
            {changed && <span className="sr-only"> (set by this step)</span>}
          </dt>
          <dd className={changed ? "font-mono break-all text-slate-900" : "font-mono break-all text-slate-500"}>
            {valueText(value)}
            {changed && (
              <Badge tone="accent" className="ml-1.5 align-middle">
                new
              </Badge>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function StepRow({
  projectId,
  run,
  step,
  before,
  definition,
  functionIdOf,
}: {
  projectId: string;
  run: AutomationRunDetail;
  step: AutomationRunStep;
  before: Record<string, unknown> | null;
  definition: AutomationStep | undefined;
  functionIdOf: (ref: string) => string;
}) {
  const status = stepStatusCopy(step.status);
  const ref = definition?.run_function?.function;
  const fn = ref ? functionIdOf(ref) : undefined;
  return (
    <li className="px-3 py-2.5" data-run-step={step.index} data-step-status={step.status} aria-label={`Step ${step.index + 1}: ${kindLabel(step.type)}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[13px]">
        <span className="font-medium text-slate-900">
          Step {step.index + 1} · {kindLabel(step.type)}
        </span>
        <Badge tone={status.tone} dot>
          {status.label}
        </Badge>
        <span className="text-slate-500 tabular-nums">{durationLabel(step.duration_ms)}</span>
        <span className="text-slate-500">
          <Time value={step.started_at} />
        </span>
      </div>
      {definition && <p className="mt-0.5 text-[12px] text-slate-600">{stepSummary(definition)}</p>}
      {step.error && (
        <p className="mt-1 text-[13px] text-red-700" role="note">
          <code className="mr-1.5 rounded-sm bg-red-50 px-1 font-mono text-[12px]">{step.error.code}</code>
          {step.error.message}
        </p>
      )}
      {(step.message_id || step.invocation_id) && (
        <p className="mt-1 flex flex-wrap gap-x-4 text-[13px]">
          {step.message_id && (
            <Link
              className={linkClass}
              href={`${projectPath(projectId, "inbox")}?c=${encodeURIComponent(run.conversation_id)}`}
              data-message-id={step.message_id}
            >
              {step.type === "wait_reply" ? "Open the reply it took" : "Open the message it sent"}
            </Link>
          )}
          {step.invocation_id && (
            <span>
              {fn ? (
                <Link className={linkClass} href={functionPath(projectId, fn)}>
                  Open the function&apos;s runs
                </Link>
              ) : (
                "Function run"
              )}{" "}
              <code className="font-mono text-[12px] text-slate-600">{step.invocation_id}</code>
            </span>
          )}
        </p>
      )}
      <Variables after={step.variables_after} before={before} />
    </li>
  );
}

/**
 * A run step by step (issue 34, "Runs"): each step's outcome, how long it took, the variables after
 * it (what it set marked new), and the message or function run it produced, linked.
 */
export function RunSteps({ projectId, run, definition }: { projectId: string; run: AutomationRunDetail; definition: readonly AutomationStep[] }) {
  const functions = useFunctions(projectId);
  // run_function names a function by slug or id; its page is by id.
  const functionIdOf = (ref: string) => functions.data?.pages.flatMap((page) => page.data).find((fn) => fn.id === ref || fn.slug === ref)?.id ?? ref;
  if (!run.steps) return <p className="text-[13px] text-slate-700">{runPosition(run, definition)}</p>;
  if (run.steps.length === 0) return <p className="text-[13px] text-slate-500">No step has run yet.</p>;
  return (
    <ol aria-label={`Steps of run ${run.id}`} className="divide-y divide-slate-100 rounded-md bg-white ring-1 ring-slate-200">
      {stepsWithBefore(run.steps).map(({ step, before }) => (
        <StepRow
          key={`${step.index}-${step.started_at}`}
          projectId={projectId}
          run={run}
          step={step}
          before={before}
          definition={definition[step.index]}
          functionIdOf={functionIdOf}
        />
      ))}
    </ol>
  );
}
