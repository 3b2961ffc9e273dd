import type { ComponentType } from "react";
import { FlowsIcon, FunctionsIcon, cn, type IconProps } from "@/components/ui";
import type { AutomationStep, StepKind } from "@/lib/client/automations";
import { DelayStepIcon, HandoffStepIcon, ReplyStepIcon, WaitReplyStepIcon } from "@/components/ui/icons";
import { STEP_KIND_LABELS, kindOf, stepSummary } from "./model/summaries";

export const STEP_ICONS: Record<StepKind, ComponentType<IconProps>> = {
  send_reply: ReplyStepIcon,
  delay: DelayStepIcon,
  wait_reply: WaitReplyStepIcon,
  pause_replies: HandoffStepIcon,
  send_flow: FlowsIcon,
  run_function: FunctionsIcon,
};

export const STEP_TONES: Record<StepKind, string> = {
  send_reply: "bg-indigo-50 text-indigo-600 ring-indigo-600/20",
  delay: "bg-slate-100 text-slate-600 ring-slate-500/20",
  wait_reply: "bg-amber-50 text-amber-700 ring-amber-600/25",
  pause_replies: "bg-rose-50 text-rose-600 ring-rose-600/20",
  send_flow: "bg-sky-50 text-sky-600 ring-sky-600/20",
  run_function: "bg-violet-50 text-violet-600 ring-violet-600/20",
};

/**
 * An automation's steps as a numbered vertical sequence: the kind's icon, its number and one line
 * saying what it does. `current` marks the step a run is at (0-based), when shown beside a run.
 */
export function StepList({ steps, label, current }: { steps: readonly AutomationStep[]; label: string; current?: number }) {
  return (
    <ol aria-label={label} className="relative space-y-2">
      {steps.map((step, index) => {
        const kind = kindOf(step);
        const Icon = STEP_ICONS[kind];
        const last = index === steps.length - 1;
        return (
          <li key={index} className="relative flex items-start gap-3" data-step-kind={kind} aria-current={current === index ? "step" : undefined}>
            {!last && <span aria-hidden="true" className="absolute top-8 bottom-[-0.5rem] left-[0.9375rem] w-px bg-slate-200" />}
            <span className={cn("relative flex size-8 shrink-0 items-center justify-center rounded-full ring-1 ring-inset", STEP_TONES[kind])}>
              <Icon />
            </span>
            <div className="min-w-0 pt-1 text-sm leading-5">
              <p className="text-[11px] font-medium tracking-wide text-slate-500 uppercase">
                Step {index + 1} · {STEP_KIND_LABELS[kind]}
              </p>
              <p className="break-words text-slate-800">{stepSummary(step)}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
