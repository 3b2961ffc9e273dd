"use client";

import { createContext, useContext, useId, type AriaAttributes, type ComponentPropsWithRef, type ReactNode } from "react";
import { cn } from "./cn";

/** What a Field tells the control inside it: its id and which texts describe it. */
interface FieldContextValue {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

const FieldContext = createContext<FieldContextValue | null>(null);

/**
 * For controls (Input, Textarea, Select) to pick up the surrounding Field's id, aria-describedby and
 * aria-invalid, so a form never needs to wire ids by hand. Explicit props still win.
 */
export function useFieldControl(props: { id?: string; "aria-describedby"?: string; "aria-invalid"?: AriaAttributes["aria-invalid"] }) {
  const field = useContext(FieldContext);
  const describedBy = [field?.describedBy, props["aria-describedby"]].filter(Boolean).join(" ") || undefined;
  return {
    id: props.id ?? field?.id,
    "aria-describedby": describedBy,
    "aria-invalid": props["aria-invalid"] ?? (field?.invalid ? true : undefined),
  };
}

export function Label({ className, ...props }: ComponentPropsWithRef<"label">) {
  return <label className={cn("block text-[13px] font-medium text-slate-800", className)} {...props} />;
}

export interface FieldProps {
  label: ReactNode;
  /** Help under the control; stays visible while an error shows. */
  hint?: ReactNode;
  /** Validation message; marks the control aria-invalid and is announced (role=alert). */
  error?: ReactNode;
  /** Shows "Optional" next to the label (required is the default look, as on most good forms). */
  optional?: boolean;
  /** Only when the control needs a specific id (e.g. referenced elsewhere). */
  id?: string;
  className?: string;
  children: ReactNode;
}

/** Label + control + hint + error, wired together for screen readers. Wrap exactly one control. */
export function Field({ label, hint, error, optional, id, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? `field${generated}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <FieldContext.Provider value={{ id: controlId, describedBy, invalid: Boolean(error) }}>
      <div className={cn("space-y-1.5", className)}>
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={controlId}>{label}</Label>
          {optional && <span className="text-xs text-slate-500">Optional</span>}
        </div>
        {children}
        {hint && (
          <p id={hintId} className="text-xs leading-5 text-slate-500">
            {hint}
          </p>
        )}
        {error && (
          <p id={errorId} role="alert" className="text-xs leading-5 font-medium text-red-600">
            {error}
          </p>
        )}
      </div>
    </FieldContext.Provider>
  );
}
