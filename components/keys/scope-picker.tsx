"use client";

import { useId } from "react";
import { Checkbox, cn } from "@/components/ui";
import { SCOPE_GROUPS, SCOPE_PRESETS, type ScopePreset } from "@/lib/shared/scope-catalog";

export const ALL_SCOPES = "*";
const EVERY_SCOPE = SCOPE_GROUPS.flatMap((group) => group.scopes.map((entry) => entry.scope as string));

/** The preset whose scopes are exactly this selection, if any. */
function matchingPreset(presets: readonly ScopePreset[], selected: readonly string[]) {
  const set = new Set(selected);
  return presets.find((preset) => preset.scopes.length === set.size && preset.scopes.every((scope) => set.has(scope)));
}

export interface ScopePickerProps {
  value: string[];
  onChange: (scopes: string[]) => void;
  error?: string;
  /** The preset buttons, least privilege first; the key form's three by default (the CLI login page adds its own). */
  presets?: readonly ScopePreset[];
}

/**
 * What a secret key may do: a preset (each says what it can do), or scopes ticked one by one, grouped by resource. "Full access"
 * is the single scope `*` (it also covers scopes added later), so unticking anything under it turns
 * the selection into every scope but that one.
 */
export function ScopePicker({ value, onChange, error, presets = SCOPE_PRESETS }: ScopePickerProps) {
  const id = useId();
  const full = value.includes(ALL_SCOPES);
  const selected = new Set(full ? EVERY_SCOPE : value);
  const preset = matchingPreset(presets, value);

  const setScopes = (next: Set<string>) => onChange(EVERY_SCOPE.filter((scope) => next.has(scope)));
  const toggle = (scopes: string[], on: boolean) => {
    const next = new Set(selected);
    for (const scope of scopes) {
      if (on) next.add(scope);
      else next.delete(scope);
    }
    setScopes(next);
  };

  return (
    <fieldset className="space-y-3" aria-describedby={error ? "scope-picker-error" : undefined}>
      <legend className="text-[13px] font-medium text-slate-800">Permissions</legend>
      <div className={cn("grid gap-2", presets.length === 3 ? "sm:grid-cols-3" : "sm:grid-cols-2")} role="group" aria-label="Presets">
        {presets.map((option) => {
          const active = preset?.id === option.id;
          return (
            <button
              key={option.id}
              type="button"
              aria-pressed={active}
              // Named by the label alone so the name stays short; the sentence is read after it as the description.
              aria-labelledby={`${id}-${option.id}-label`}
              aria-describedby={`${id}-${option.id}-grants`}
              onClick={() => onChange([...option.scopes])}
              className={cn(
                "rounded-lg px-3 py-2 text-left transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
                active ? "bg-indigo-50 ring-2 ring-indigo-600" : "bg-white ring-1 ring-slate-300 hover:bg-slate-50",
              )}
            >
              <span id={`${id}-${option.id}-label`} className="block text-[13px] font-semibold text-slate-900">
                {option.label}
              </span>
              <span id={`${id}-${option.id}-grants`} className="mt-0.5 block text-xs leading-5 text-slate-600">
                {option.description}
              </span>
            </button>
          );
        })}
      </div>
      <p className="text-xs leading-5 text-slate-600" aria-live="polite">
        {preset
          ? `${preset.label} selected. Tick more scopes below only if this key needs them.`
          : value.length === 0
            ? "Pick a preset or tick the scopes this key needs."
            : `Custom: ${value.length} of ${EVERY_SCOPE.length} scopes.`}
      </p>

      {/* relative: the groups' sr-only labels are positioned inside the scroller, not far below it on the page. */}
      <div className="relative max-h-80 space-y-1 overflow-y-auto rounded-md p-1 ring-1 ring-slate-200 ring-inset">
        {SCOPE_GROUPS.map((group) => {
          const scopes = group.scopes.map((entry) => entry.scope as string);
          const count = scopes.filter((scope) => selected.has(scope)).length;
          const all = count === scopes.length;
          return (
            <div key={group.resource} className="rounded-md px-2.5 py-2 hover:bg-slate-50/70">
              <Checkbox
                label={
                  <>
                    {group.label}
                    <span className="sr-only"> (every {group.label} scope)</span>
                  </>
                }
                checked={all}
                ref={(input: HTMLInputElement | null) => {
                  if (input) input.indeterminate = count > 0 && !all;
                }}
                onChange={(event) => toggle(scopes, event.target.checked)}
              />
              <div className="mt-1.5 ml-7 grid gap-x-4 gap-y-1.5 sm:grid-cols-2">
                {group.scopes.map((entry) => (
                  <Checkbox
                    key={entry.scope}
                    label={<span className="font-mono text-[12px] font-normal text-slate-700">{entry.scope}</span>}
                    description={<span className="text-xs">{entry.grants}</span>}
                    checked={selected.has(entry.scope)}
                    onChange={(event) => toggle([entry.scope], event.target.checked)}
                  />
                ))}
              </div>
            </div>
          );
        })}
      </div>
      {error && (
        <p id="scope-picker-error" role="alert" className="text-xs leading-5 font-medium text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
