"use client";

import { useId } from "react";
import { Spinner, cn } from "@/components/ui";
import {
  CHANNEL_ROUTING_MODES,
  FOLLOW_PROJECT_LABEL,
  ROUTING_LABELS,
  ROUTING_SENTENCES,
  type ChannelRoutingMode,
  type ProjectRoutingMode,
} from "@/lib/shared/routing-modes";

/** The radio value of "no routing of its own" (null on the wire). */
const FOLLOW = "PROJECT";

export interface RoutingModeControlProps {
  /** Names the group, e.g. "Routing mode of Support line". */
  label: string;
  /** The channel's own routing; null: it follows the project. */
  value: ChannelRoutingMode | null;
  /** The project's routing, which the channel follows while value is null; undefined while loading. */
  projectRouting: ProjectRoutingMode | undefined;
  onChange: (value: ChannelRoutingMode | null) => void;
  disabled?: boolean;
  saving?: boolean;
  /** id of a text explaining why the control is disabled. */
  describedBy?: string;
}

/**
 * A segmented control built from native radios (arrow keys move between modes, as in any radio
 * group): the channel's own modes, and "PROJECT", the only way a channel routes AGENT. The words are
 * lib/shared/routing-modes.ts's, as everywhere routing is explained; the Channels page states the
 * override rule once above the cards.
 */
export function RoutingModeControl({ label, value, projectRouting, onChange, disabled, saving, describedBy }: RoutingModeControlProps) {
  const name = useId();
  const descriptionId = `${name}-description`;
  const options = [...CHANNEL_ROUTING_MODES, FOLLOW] as const;
  const effective = value ?? projectRouting;
  return (
    <fieldset disabled={disabled || saving} aria-describedby={[descriptionId, describedBy].filter(Boolean).join(" ")} className="min-w-0">
      <legend className="sr-only">{label}</legend>
      <div className="flex flex-wrap items-center gap-3">
        <div className="inline-flex flex-wrap rounded-md bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset">
          {options.map((option) => {
            const selected = option === (value ?? FOLLOW);
            // What picking it will do, before it is picked (it applies at once).
            const mode = option === FOLLOW ? projectRouting : option;
            const choiceName = option === FOLLOW ? `${FOLLOW_PROJECT_LABEL}${projectRouting ? ` (${projectRouting})` : ""}` : ROUTING_LABELS[option];
            const title = mode ? `${choiceName}: ${ROUTING_SENTENCES[mode]}` : choiceName;
            return (
              <label
                key={option}
                title={title}
                className={cn(
                  "relative flex h-7 cursor-pointer items-center rounded-[5px] px-2.5 font-mono text-[12px] font-medium transition-colors",
                  "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-indigo-600",
                  "has-[:disabled]:cursor-not-allowed",
                  selected ? "bg-white text-slate-900 shadow-xs ring-1 ring-slate-200" : "text-slate-600 hover:text-slate-900",
                  disabled && !selected && "opacity-60",
                )}
              >
                <input
                  type="radio"
                  name={name}
                  value={option}
                  checked={selected}
                  onChange={() => onChange(option === FOLLOW ? null : option)}
                  className="absolute inset-0 cursor-pointer appearance-none opacity-0 disabled:cursor-not-allowed"
                />
                {option === FOLLOW ? "PROJECT" : option}
              </label>
            );
          })}
        </div>
        {saving && (
          <span className="inline-flex items-center gap-1.5 text-[13px] text-slate-500">
            <Spinner size={14} /> Saving…
          </span>
        )}
      </div>
      <p id={descriptionId} className="mt-2 text-[13px] text-slate-600" data-testid="routing-sentence">
        <span className="font-medium text-slate-800">
          {value === null ? `${FOLLOW_PROJECT_LABEL}${projectRouting ? `, now ${projectRouting}` : ""}.` : `${ROUTING_LABELS[value]}.`}
        </span>{" "}
        {effective && ROUTING_SENTENCES[effective]}
      </p>
    </fieldset>
  );
}
