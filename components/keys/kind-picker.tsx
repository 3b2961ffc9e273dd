"use client";

import { cn } from "@/components/ui";
import type { KeyKind } from "@/lib/client/keys";

const KINDS: { kind: KeyKind; label: string; description: string }[] = [
  { kind: "secret", label: "Secret", description: "For your servers. Starts with svc_live_; never put it in a browser or app." },
  { kind: "publishable", label: "Publishable", description: "Safe in a web page. Starts with svc_pub_; only starts registrations from allowed origins." },
];

export function KindPicker({ value, onChange }: { value: KeyKind; onChange: (kind: KeyKind) => void }) {
  return (
    <fieldset>
      <legend className="text-[13px] font-medium text-slate-800">Type</legend>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
        {KINDS.map((option) => {
          const selected = value === option.kind;
          return (
            <label
              key={option.kind}
              className={cn(
                "flex cursor-pointer items-start gap-3 rounded-md px-3 py-2.5 ring-1 transition-colors ring-inset has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-600",
                selected ? "bg-indigo-50/60 ring-indigo-300" : "ring-slate-200 hover:bg-slate-50",
              )}
            >
              <input
                type="radio"
                name="key_kind"
                value={option.kind}
                checked={selected}
                onChange={() => onChange(option.kind)}
                className="mt-0.5 size-4 accent-indigo-600 focus-visible:outline-none"
              />
              <span className="text-sm leading-5">
                <span className="font-medium text-slate-900">{option.label}</span>
                <span className="block text-xs leading-5 text-slate-600">{option.description}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
