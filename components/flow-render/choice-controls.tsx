"use client";

import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { FieldLabel, FieldNotes, describedBy, phoneControlClasses, type FieldText } from "./field-shell";

export interface ChoiceOption {
  id: string;
  title: string;
  description?: string;
  enabled: boolean;
}

/** Dropdown: a native select of the data-source titles; its value is the picked option's id. */
export function DropdownControl({ options, value, onChange, ...text }: FieldText & { options: ChoiceOption[]; value: string; onChange: (id: string) => void }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <FieldLabel htmlFor={id} label={text.label} required={text.required} />
      <select
        id={id}
        aria-describedby={describedBy(id, text)}
        aria-invalid={text.error ? true : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={`${phoneControlClasses} h-10`}
      >
        <option value="">Select</option>
        {options.map((option) => (
          <option key={option.id} value={option.id} disabled={!option.enabled}>
            {option.title}
          </option>
        ))}
      </select>
      <FieldNotes id={id} helper={text.helper} error={text.error} />
    </div>
  );
}

export interface GroupControlProps extends FieldText {
  multiple: boolean;
  options: ChoiceOption[];
  value: string[];
  onChange: (ids: string[]) => void;
}

/** RadioButtonsGroup (one id) and CheckboxGroup (many ids): a fieldset named by the label. */
export function GroupControl({ multiple, options, value, onChange, ...text }: GroupControlProps) {
  const id = useId();
  const toggle = (optionId: string, on: boolean) =>
    onChange(multiple ? (on ? [...value.filter((v) => v !== optionId), optionId] : value.filter((v) => v !== optionId)) : on ? [optionId] : []);
  return (
    <fieldset aria-describedby={describedBy(id, text)} className="space-y-1">
      <legend className="mb-1 text-[13px] font-medium text-slate-700">
        {text.label}
        {!text.required && <span className="font-normal text-slate-500"> (optional)</span>}
      </legend>
      <div className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {/* The look follows the option's own `enabled`, not :disabled: a still preview (a disabled fieldset) shows what the customer sees. */}
        {options.map((option) => (
          <label
            key={option.id}
            className={cn("flex cursor-pointer items-start gap-3 px-3 py-2.5 text-sm", !option.enabled && "cursor-not-allowed opacity-50")}
          >
            <span className="min-w-0 flex-1">
              <span className="block">{option.title}</span>
              {option.description && <span className="block text-xs text-slate-500">{option.description}</span>}
            </span>
            <input
              type={multiple ? "checkbox" : "radio"}
              name={`${id}-group`}
              value={option.id}
              checked={value.includes(option.id)}
              disabled={!option.enabled}
              onChange={(e) => toggle(option.id, e.target.checked)}
              className="mt-0.5 size-4 accent-emerald-700"
            />
          </label>
        ))}
      </div>
      <FieldNotes id={id} helper={text.helper} error={text.error} />
    </fieldset>
  );
}

/** OptIn: one checkbox whose value is a boolean. */
export function OptInControl({ checked, onChange, ...text }: FieldText & { checked: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-describedby={describedBy(id, text)}
          aria-invalid={text.error ? true : undefined}
          onChange={(e) => onChange(e.target.checked)}
          className="mt-0.5 size-4 accent-emerald-700"
        />
        <FieldLabel htmlFor={id} label={text.label} required={text.required} />
      </div>
      <FieldNotes id={id} helper={text.helper} error={text.error} />
    </div>
  );
}
