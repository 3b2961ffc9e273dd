"use client";

import { useState, type KeyboardEvent } from "react";
import { Badge, Input } from "@/components/ui";
import { CloseIcon } from "@/components/ui/icons";

/**
 * Keywords as removable chips (handoff keywords, skill triggers): Enter or "," adds what was typed,
 * Backspace on an empty box removes the last. A chip already there is not added twice.
 */
export function ChipsInput({
  label,
  values,
  onChange,
  placeholder,
  invalid,
}: {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  placeholder?: string;
  invalid?: boolean;
}) {
  const [draft, setDraft] = useState("");
  const add = () => {
    const value = draft.trim().replace(/,$/, "").trim();
    if (value && !values.includes(value)) onChange([...values, value]);
    setDraft("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add();
    } else if (event.key === "Backspace" && !draft && values.length) onChange(values.slice(0, -1));
  };
  return (
    <div className="space-y-1.5">
      {values.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={`${label} list`}>
          {values.map((value) => (
            <li key={value}>
              <Badge tone="accent">
                {value}
                <button
                  type="button"
                  className="-mr-0.5 rounded text-indigo-500 hover:text-indigo-800"
                  aria-label={`Remove ${value}`}
                  onClick={() => onChange(values.filter((v) => v !== value))}
                >
                  <CloseIcon size={12} />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
      <Input
        aria-label={label}
        value={draft}
        placeholder={placeholder ?? "Type and press Enter"}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
        aria-invalid={invalid || undefined}
      />
    </div>
  );
}
