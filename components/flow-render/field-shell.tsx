import type { ReactNode } from "react";

export const phoneControlClasses =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-emerald-700 focus:ring-1 focus:ring-emerald-700 focus:outline-none aria-[invalid=true]:border-red-500";

export interface FieldText {
  label: string;
  required: boolean;
  helper?: string;
  error?: string;
}

/** Helper text and the error under a control; the ids are what aria-describedby points at. */
export function FieldNotes({ id, helper, error }: { id: string; helper?: string; error?: string }) {
  return (
    <>
      {helper && (
        <p id={`${id}-helper`} className="text-xs text-slate-500">
          {helper}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
    </>
  );
}

export function describedBy(id: string, { helper, error }: { helper?: string; error?: string }): string | undefined {
  return [error ? `${id}-error` : "", helper ? `${id}-helper` : ""].filter(Boolean).join(" ") || undefined;
}

/** The label line: the provider marks optional inputs, not required ones. */
export function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: string; required: boolean }): ReactNode {
  return (
    <label htmlFor={htmlFor} className="block text-[13px] font-medium text-slate-700">
      {label}
      {!required && <span className="font-normal text-slate-500"> (optional)</span>}
    </label>
  );
}
