"use client";

import { useId } from "react";
import { FieldLabel, FieldNotes, describedBy, phoneControlClasses, type FieldText } from "./field-shell";

const INPUT_TYPES: Record<string, { type: string; inputMode?: "numeric" | "email" | "tel" | "text" }> = {
  text: { type: "text" },
  number: { type: "text", inputMode: "numeric" },
  email: { type: "email", inputMode: "email" },
  phone: { type: "tel", inputMode: "tel" },
  password: { type: "password" },
  passcode: { type: "password", inputMode: "numeric" },
};

export interface TextControlProps extends FieldText {
  control: "text" | "textarea" | "date";
  inputType: string;
  maxChars?: number;
  value: string;
  onChange: (value: string) => void;
}

/** TextInput, TextArea and DatePicker: a labelled native control (a date input yields YYYY-MM-DD, as the provider sends). */
export function TextControl({ control, inputType, maxChars, value, onChange, ...text }: TextControlProps) {
  const id = useId();
  const aria = { id, "aria-describedby": describedBy(id, text), "aria-invalid": text.error ? true : undefined, "aria-required": text.required || undefined };
  return (
    <div className="space-y-1">
      <FieldLabel htmlFor={id} label={text.label} required={text.required} />
      {control === "textarea" ? (
        <textarea {...aria} rows={3} maxLength={maxChars} value={value} onChange={(e) => onChange(e.target.value)} className={`${phoneControlClasses} py-2`} />
      ) : control === "date" ? (
        <input {...aria} type="date" value={value} onChange={(e) => onChange(e.target.value)} className={`${phoneControlClasses} h-10`} />
      ) : (
        <input
          {...aria}
          type={INPUT_TYPES[inputType]?.type ?? "text"}
          inputMode={INPUT_TYPES[inputType]?.inputMode}
          maxLength={maxChars}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={`${phoneControlClasses} h-10`}
        />
      )}
      <FieldNotes id={id} helper={text.helper} error={text.error} />
    </div>
  );
}
