"use client";

import { useId, type ReactNode } from "react";
import { cn } from "./cn";

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** Visible label; without it pass `aria-label`. */
  label?: ReactNode;
  description?: ReactNode;
  "aria-label"?: string;
  disabled?: boolean;
  /** Shows the switch as busy (e.g. while the change is saved) without losing its position. */
  loading?: boolean;
  id?: string;
  className?: string;
}

/** An on/off toggle (role=switch) for settings that apply at once; Space and Enter toggle it. */
export function Switch({ checked, onCheckedChange, label, description, disabled, loading, id, className, ...aria }: SwitchProps) {
  const generated = useId();
  const switchId = id ?? `switch${generated}`;
  const descriptionId = description ? `${switchId}-description` : undefined;
  const control = (
    <button
      id={switchId}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={aria["aria-label"]}
      aria-describedby={descriptionId}
      aria-busy={loading || undefined}
      disabled={disabled || loading}
      onClick={() => onCheckedChange(!checked)}
      className={cn(
        "relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
        "disabled:cursor-not-allowed disabled:opacity-55",
        checked ? "bg-indigo-600" : "bg-slate-300",
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          "inline-block size-4 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform motion-reduce:transition-none",
          checked ? "translate-x-[18px]" : "translate-x-0.5",
        )}
      />
    </button>
  );
  if (!label) return <span className={className}>{control}</span>;
  return (
    <div className={cn("flex items-start justify-between gap-4", className)}>
      <div className="text-sm leading-5">
        <label htmlFor={switchId} className="font-medium text-slate-800">
          {label}
        </label>
        {description && (
          <p id={descriptionId} className="text-slate-500">
            {description}
          </p>
        )}
      </div>
      <div className="flex h-5 items-center">{control}</div>
    </div>
  );
}
