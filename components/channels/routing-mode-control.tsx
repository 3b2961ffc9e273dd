"use client";

import { useId } from "react";
import { Spinner, cn } from "@/components/ui";
import { CHANNEL_ROUTING_MODES, type ChannelRoutingMode } from "@/lib/client/channels";

export const ROUTING_TEXT: Record<ChannelRoutingMode, { short: string; long: string }> = {
  EXTERNAL: { short: "Forward to webhook", long: "Inbound messages are forwarded to the project's webhook as message.received." },
  FLOWS: { short: "Automations", long: "Built-in automations handle inbound messages; nothing is forwarded to the webhook." },
  NONE: { short: "Record only", long: "Inbound messages are stored; nothing is forwarded or answered." },
};

export interface RoutingModeControlProps {
  /** Names the group, e.g. "Routing mode of Support line". */
  label: string;
  value: ChannelRoutingMode;
  onChange: (value: ChannelRoutingMode) => void;
  disabled?: boolean;
  saving?: boolean;
  /** id of a text explaining why the control is disabled. */
  describedBy?: string;
}

/** A segmented control built from native radios (arrow keys move between modes, as in any radio group). */
export function RoutingModeControl({ label, value, onChange, disabled, saving, describedBy }: RoutingModeControlProps) {
  const name = useId();
  const descriptionId = `${name}-description`;
  const text = ROUTING_TEXT[value] ?? { short: value, long: "" };
  return (
    <fieldset disabled={disabled || saving} aria-describedby={[descriptionId, describedBy].filter(Boolean).join(" ")} className="min-w-0">
      <legend className="sr-only">{label}</legend>
      <div className="flex flex-wrap items-center gap-3">
        <div className="inline-flex rounded-md bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset">
          {CHANNEL_ROUTING_MODES.map((mode) => {
            const selected = mode === value;
            return (
              <label
                key={mode}
                title={ROUTING_TEXT[mode].short}
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
                  value={mode}
                  checked={selected}
                  onChange={() => onChange(mode)}
                  className="absolute inset-0 cursor-pointer appearance-none opacity-0 disabled:cursor-not-allowed"
                />
                {mode}
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
      <p id={descriptionId} className="mt-2 text-[13px] text-slate-600">
        <span className="font-medium text-slate-800">{text.short}.</span> {text.long}
      </p>
    </fieldset>
  );
}
