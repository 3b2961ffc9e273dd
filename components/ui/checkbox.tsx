"use client";

import { useId, type ComponentPropsWithRef, type ReactNode } from "react";
import { cn } from "./cn";

export type CheckboxProps = Omit<ComponentPropsWithRef<"input">, "type"> & {
  label: ReactNode;
  description?: ReactNode;
};

/** A native checkbox with its label beside it (the whole label is the click target). */
export function Checkbox({ label, description, className, id, ...props }: CheckboxProps) {
  const generated = useId();
  const inputId = id ?? `checkbox${generated}`;
  const descriptionId = description ? `${inputId}-description` : undefined;
  return (
    <div className={cn("flex gap-3", className)}>
      <div className="flex h-5 items-center">
        <input
          id={inputId}
          type="checkbox"
          aria-describedby={descriptionId}
          className="size-4 cursor-pointer rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed"
          {...props}
        />
      </div>
      <div className="text-sm leading-5">
        <label htmlFor={inputId} className="cursor-pointer font-medium text-slate-800">
          {label}
        </label>
        {description && (
          <p id={descriptionId} className="text-slate-500">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}
