"use client";

import { Field, Select } from "@/components/ui";
import { ChipsInput } from "@/components/agent/chips-input";
import type { AutomationTrigger, MatchMode } from "@/lib/client/automations";
import { triggerSummary } from "../model/summaries";

const TRIGGER_CHOICES: Array<{ value: AutomationTrigger["type"]; label: string; hint: string }> = [
  { value: "KEYWORD", label: "Keyword", hint: "A message with one of the keywords starts it. The first matching automation in the list wins." },
  { value: "WELCOME", label: "Welcome", hint: "A contact's very first message in this project starts it (on the sandbox, the join message)." },
  { value: "ANY_MESSAGE", label: "Any message", hint: "Any message no keyword or welcome automation took starts it." },
];

export const MATCH_CHOICES: Array<{ value: MatchMode; label: string }> = [
  { value: "CONTAINS_WORD", label: "Contains the word(s)" },
  { value: "CONTAINS", label: "Contains (anywhere, even inside a word)" },
  { value: "EXACT", label: "Is exactly" },
];

/** What starts the automation: its type, and for KEYWORD the keywords and how they match. */
export function TriggerEditor({
  trigger,
  onChange,
  errorAt,
}: {
  trigger: AutomationTrigger;
  onChange: (trigger: AutomationTrigger) => void;
  errorAt: (field: string) => string | undefined;
}) {
  const choice = TRIGGER_CHOICES.find((item) => item.value === trigger.type) ?? TRIGGER_CHOICES[0]!;
  const keywordsError = errorAt("trigger.keywords");
  return (
    <div className="space-y-4" data-trigger-type={trigger.type}>
      <Field label="Starts when" hint={choice.hint} error={errorAt("trigger.type") ?? errorAt("trigger")}>
        <Select
          value={trigger.type}
          onChange={(event) => {
            const type = event.target.value as AutomationTrigger["type"];
            onChange(type === "KEYWORD" ? { type, match_mode: trigger.match_mode ?? "CONTAINS_WORD", keywords: trigger.keywords ?? [] } : { ...trigger, type });
          }}
        >
          {TRIGGER_CHOICES.map((item) => (
            <option key={item.value} value={item.value}>
              {item.label}
            </option>
          ))}
        </Select>
      </Field>
      {trigger.type === "KEYWORD" && (
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,16rem)]">
          <div className="space-y-1.5">
            <p className="text-[13px] font-medium text-slate-800">Keywords</p>
            <ChipsInput
              label="Keywords"
              values={trigger.keywords ?? []}
              onChange={(keywords) => onChange({ ...trigger, keywords })}
              placeholder="Type a keyword and press Enter"
              invalid={Boolean(keywordsError)}
            />
            <p className="text-xs leading-5 text-slate-500">Compared without case, accents or extra spaces. A button reply matches by its title and its id.</p>
            {keywordsError && (
              <p role="alert" className="text-xs leading-5 font-medium text-red-600">
                {keywordsError}
              </p>
            )}
          </div>
          <Field label="Match" error={errorAt("trigger.match_mode")}>
            <Select value={trigger.match_mode ?? "CONTAINS_WORD"} onChange={(event) => onChange({ ...trigger, match_mode: event.target.value as MatchMode })}>
              {MATCH_CHOICES.map((item) => (
                <option key={item.value} value={item.value}>
                  {item.label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      )}
      <p className="rounded-md bg-slate-50 px-3 py-2 text-[13px] text-slate-700 ring-1 ring-slate-200" aria-live="polite">
        {triggerSummary(trigger)}
      </p>
    </div>
  );
}
