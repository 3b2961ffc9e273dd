"use client";

import { useId, useRef, useState, type ReactNode } from "react";
import { Button, Field, Input, PlusIcon, Textarea } from "@/components/ui";
import { insertAt, namedVariableProblem, variableToken, variablesIn } from "../model/variables";
import type { ParameterFormat } from "../model/vocabulary";

interface VariableTextProps {
  label: string;
  /** Where the variable goes, for the insert button's name ("body" → "Insert variable in body"). */
  where: string;
  value: string;
  onChange: (value: string) => void;
  format: ParameterFormat;
  maxLength: number;
  multiline?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  placeholder?: string;
  /** A text header holds one variable: the button goes once there is one. */
  maxVariables?: number;
}

/**
 * A template text with an "Insert variable" button that puts the next variable where the caret is
 * ({{n}} positional, or a typed name with NAMED), then gives the focus back after it.
 */
export function VariableText({ label, where, value, onChange, format, maxLength, multiline, error, hint, placeholder, maxVariables }: VariableTextProps) {
  const control = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const full = maxVariables !== undefined && variablesIn(value).length >= maxVariables;

  const insert = () => {
    if (format === "NAMED") {
      const problem = namedVariableProblem(name.trim());
      setNameError(problem);
      if (problem) return;
    }
    const element = control.current;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    const next = insertAt(value, start, end, variableToken(format, value, name.trim()));
    onChange(next.text);
    setName("");
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(next.caret, next.caret);
    });
  };

  const length = [...value].length;
  const counter = (
    <span className={length > maxLength ? "text-red-600" : undefined}>
      {length}/{maxLength}
    </span>
  );
  return (
    <div className="space-y-2">
      <Field
        label={label}
        error={error}
        hint={
          <>
            {hint} {counter}
          </>
        }
      >
        {multiline ? (
          <Textarea ref={control} rows={5} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} />
        ) : (
          <Input ref={control} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} />
        )}
      </Field>
      {!full && (
        <div className="flex flex-wrap items-start gap-2">
          {format === "NAMED" && (
            <div className="w-48">
              <Input
                aria-label={`New variable name for the ${where}`}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="first_name"
                mono
                aria-invalid={nameError ? true : undefined}
                spellCheck={false}
              />
              {nameError && <p className="mt-1 text-xs text-red-600">{nameError}</p>}
            </div>
          )}
          <Button size="sm" icon={<PlusIcon size={14} />} onClick={insert} aria-label={`Insert variable in ${where}`}>
            Insert variable
          </Button>
        </div>
      )}
    </div>
  );
}

/** One example value per variable found in the text: what the reviewer reads, and what the preview shows. */
export function VariableExamples({
  text,
  examples,
  onChange,
  error,
}: {
  text: string;
  examples: Record<string, string>;
  onChange: (examples: Record<string, string>) => void;
  error?: string | undefined;
}) {
  const names = variablesIn(text);
  const errorId = useId();
  if (names.length === 0) return null;
  return (
    <fieldset className="space-y-3 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset">
      <legend className="sr-only">Example values</legend>
      <p className="text-xs text-slate-600">Example values: the provider&apos;s reviewer reads them, and the preview shows them.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {names.map((name) => (
          <Field key={name} label={`Example for {{${name}}}`}>
            <Input
              value={examples[name] ?? ""}
              onChange={(e) => onChange({ ...examples, [name]: e.target.value })}
              autoComplete="off"
              aria-invalid={error && !examples[name]?.trim() ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </Field>
        ))}
      </div>
      {error && (
        <p role="alert" id={errorId} className="text-xs font-medium text-red-600" data-testid="example-values-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
