"use client";

import { cn } from "@/components/ui";
import type { DocumentFormat } from "./model/document";

const FORMATS: Array<{ value: DocumentFormat; label: string }> = [
  { value: "yaml", label: "YAML" },
  { value: "json", label: "JSON" },
];

/** YAML or JSON: two pressed/unpressed buttons sharing one frame. */
export function FormatToggle({ value, onChange, label }: { value: DocumentFormat; onChange: (format: DocumentFormat) => void; label: string }) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md bg-slate-100 p-0.5 ring-1 ring-slate-200">
      {FORMATS.map((format) => {
        const pressed = value === format.value;
        return (
          <button
            key={format.value}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(format.value)}
            className={cn(
              "h-7 rounded px-2.5 text-[12px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600",
              pressed ? "bg-white text-slate-900 shadow-xs ring-1 ring-slate-200" : "text-slate-600 hover:text-slate-900",
            )}
          >
            {format.label}
          </button>
        );
      })}
    </div>
  );
}
