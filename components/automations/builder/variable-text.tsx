"use client";

import { useId, useRef, type ReactNode } from "react";
import { Field, Input, Textarea } from "@/components/ui";
import type { AutomationStep } from "@/lib/client/automations";
import { insertPlaceholder, mergesUnknownVars, unknownPlaceholders, variablesAt } from "../model/variables";

/**
 * A text that takes placeholders (send_reply's text, a flow message's texts): the variables this step
 * can use as buttons that put `{{name}}` at the caret, and a note when the text names one nothing
 * before this step sets (it would render empty).
 */
export function VariableText({
  label,
  value,
  onChange,
  steps,
  index,
  error,
  hint,
  optional,
  multiline = true,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The automation's steps (as entries), and this step's index: what earlier steps set is offered. */
  steps: readonly AutomationStep[];
  index: number;
  error?: string | undefined;
  hint?: ReactNode;
  optional?: boolean;
  multiline?: boolean;
  maxLength?: number;
}) {
  const control = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const groupId = useId();
  const variables = variablesAt(steps, index);
  const unknown = unknownPlaceholders(value, steps, index);

  const insert = (name: string) => {
    const element = control.current;
    const { text, caret } = insertPlaceholder(value, name, element?.selectionStart ?? value.length, element?.selectionEnd ?? value.length);
    onChange(text);
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(caret, caret);
    });
  };

  const note = unknown.length
    ? `Nothing before this step sets ${unknown.map((name) => `{{${name}}}`).join(", ")}: it would be sent empty (or as written, outside vars).`
    : undefined;
  return (
    <div className="space-y-1.5">
      <Field
        label={label}
        error={error}
        hint={
          hint || note ? (
            <>
              {hint}
              {hint && note ? " " : null}
              {note}
            </>
          ) : undefined
        }
        optional={optional}
      >
        {multiline ? (
          <Textarea ref={control} rows={3} value={value} maxLength={maxLength} onChange={(event) => onChange(event.target.value)} />
        ) : (
          <Input ref={control} value={value} maxLength={maxLength} onChange={(event) => onChange(event.target.value)} />
        )}
      </Field>
      <div role="group" aria-labelledby={groupId} className="flex flex-wrap items-center gap-1.5">
        <span id={groupId} className="text-xs text-slate-500">
          Insert into {label.toLowerCase()}:
        </span>
        {variables.map((variable) => (
          <button
            key={variable.name}
            type="button"
            onClick={() => insert(variable.name)}
            title={`${variable.description}${variable.fromStep !== undefined ? ` (set by step ${variable.fromStep + 1})` : ""}`}
            className="rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] text-slate-700 ring-1 ring-slate-200 ring-inset hover:bg-indigo-50 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {`{{${variable.name}}}`}
          </button>
        ))}
        {mergesUnknownVars(steps, index) && <span className="text-xs text-slate-500">and the keys your function returns, as {"{{vars.KEY}}"}</span>}
      </div>
    </div>
  );
}
