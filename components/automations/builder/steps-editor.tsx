"use client";

import { Button, ChevronDownIcon, TrashIcon, cn } from "@/components/ui";
import type { AutomationStep, StepKind } from "@/lib/client/automations";
import { STEP_KIND_LABELS, STEP_KIND_ORDER, kindOf, stepSummary } from "../model/summaries";
import { hasErrorsUnder } from "../model/issue-fields";
import { STEP_ICONS, STEP_TONES } from "../step-list";
import { DelayFields, PauseFields, RunFunctionFields, SendFlowFields } from "./other-fields";
import { ReplyFields } from "./reply-fields";
import type { Builder } from "./use-builder";
import { WaitReplyFields } from "./wait-reply-fields";

// definition.ts: an automation has 1 to 50 steps.
const MAX_STEPS = 50;

function StepFields({ builder, projectId, index, step }: { builder: Builder; projectId: string; index: number; step: AutomationStep }) {
  const steps = builder.entry.steps;
  const common = { errorAt: builder.errorAt, steps, index };
  const kind = kindOf(step);
  const path = `steps.${index}.${kind}`;
  const set = (value: unknown) => builder.setStep(index, { [kind]: value } as AutomationStep);
  switch (kind) {
    case "send_reply":
      return <ReplyFields {...common} path={path} value={step.send_reply!} onChange={set} />;
    case "delay":
      return <DelayFields {...common} path={path} value={step.delay!} onChange={set} />;
    case "wait_reply":
      return <WaitReplyFields {...common} path={path} value={step.wait_reply!} onChange={set} />;
    case "pause_replies":
      return <PauseFields {...common} path={path} value={step.pause_replies!} onChange={set} />;
    case "send_flow":
      return <SendFlowFields {...common} projectId={projectId} path={path} value={step.send_flow!} onChange={set} />;
    case "run_function":
      return <RunFunctionFields {...common} projectId={projectId} path={path} value={step.run_function!} onChange={set} />;
  }
}

function StepCard({ builder, projectId, index, count }: { builder: Builder; projectId: string; index: number; count: number }) {
  const { step } = builder.draft.steps[index]!;
  const kind = kindOf(step);
  const Icon = STEP_ICONS[kind];
  const label = `Step ${index + 1}: ${STEP_KIND_LABELS[kind]}`;
  const cardError = builder.errorAt(`steps.${index}`);
  const invalid = hasErrorsUnder(builder.placed, `steps.${index}`);
  return (
    <li
      aria-label={label}
      data-step-kind={kind}
      data-invalid={invalid || undefined}
      className={cn("rounded-lg bg-white shadow-xs ring-1", invalid ? "ring-red-300" : "ring-slate-200")}
    >
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-100 px-4 py-2.5">
        <span className={cn("flex size-8 shrink-0 items-center justify-center rounded-full ring-1 ring-inset", STEP_TONES[kind])}>
          <Icon />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-[11px] font-medium tracking-wide text-slate-500 uppercase">
            Step {index + 1} · {STEP_KIND_LABELS[kind]}
          </p>
          <p className="truncate text-[13px] text-slate-700">{stepSummary(builder.entry.steps[index] ?? step)}</p>
        </div>
        <div className="flex items-center gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move step ${index + 1} up`}
            disabled={index === 0}
            onClick={() => builder.moveStep(index, index - 1)}
          >
            <ChevronDownIcon className="rotate-180" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Move step ${index + 1} down`}
            disabled={index === count - 1}
            onClick={() => builder.moveStep(index, index + 1)}
          >
            <ChevronDownIcon />
          </Button>
          <Button variant="ghost" size="icon" aria-label={`Remove step ${index + 1}`} disabled={count === 1} onClick={() => builder.removeStep(index)}>
            <TrashIcon />
          </Button>
        </div>
      </div>
      <div className="space-y-3 px-4 py-4">
        {cardError && (
          <p role="alert" className="text-[13px] font-medium text-red-600">
            {cardError}
          </p>
        )}
        <StepFields builder={builder} projectId={projectId} index={index} step={step} />
      </div>
    </li>
  );
}

/** The steps as a vertical list of cards, in the order they run; a row of buttons adds a step of each kind at the end. */
export function StepsEditor({ builder, projectId }: { builder: Builder; projectId: string }) {
  const { steps } = builder.draft;
  const listError = builder.errorAt("steps");
  return (
    <div className="space-y-3">
      <ol aria-label="Steps" className="space-y-3">
        {steps.map((item, index) => (
          <StepCard key={item.uid} builder={builder} projectId={projectId} index={index} count={steps.length} />
        ))}
      </ol>
      {listError && (
        <p role="alert" className="text-[13px] font-medium text-red-600">
          {listError}
        </p>
      )}
      {steps.length < MAX_STEPS && (
        <div role="group" aria-label="Add a step" className="flex flex-wrap items-center gap-2 rounded-lg border border-dashed border-slate-300 px-3 py-2.5">
          <span className="text-[13px] text-slate-600">Add a step:</span>
          {STEP_KIND_ORDER.map((kind: StepKind) => {
            const Icon = STEP_ICONS[kind];
            return (
              <Button key={kind} size="sm" icon={<Icon />} onClick={() => builder.addStep(kind)}>
                {STEP_KIND_LABELS[kind]}
              </Button>
            );
          })}
        </div>
      )}
    </div>
  );
}
