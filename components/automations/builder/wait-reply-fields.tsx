"use client";

import { Button, Field, Input, PlusIcon, Select, TrashIcon } from "@/components/ui";
import { ChipsInput } from "@/components/agent/chips-input";
import type { AutomationStep, MatchMode } from "@/lib/client/automations";
import { idFromTitle } from "../model/draft";
import type { StepFieldProps } from "./reply-fields";
import { MATCH_CHOICES } from "./trigger-editor";

type WaitReply = NonNullable<AutomationStep["wait_reply"]>;
type Option = NonNullable<WaitReply["options"]>[number];

// decisions.md: wait_reply waits 24 hours unless told, at most 168 (a week).
const DEFAULT_HOURS = 24;
const MAX_HOURS = 168;

/** The nearest earlier reply's buttons: the options a customer's tap will match. */
function earlierButtons(steps: readonly AutomationStep[], index: number) {
  for (let i = index - 1; i >= 0; i -= 1) {
    const buttons = steps[i]?.send_reply?.buttons;
    if (buttons?.length) return { step: i, buttons };
  }
  return null;
}

function OptionRow({
  option,
  o,
  path,
  errorAt,
  onChange,
  onRemove,
}: {
  option: Option;
  o: number;
  path: string;
  errorAt: StepFieldProps<WaitReply>["errorAt"];
  onChange: (option: Option) => void;
  onRemove: () => void;
}) {
  const at = `${path}.options.${o}`;
  const keywordsError = errorAt(`${at}.keywords`);
  return (
    <li className="space-y-3 rounded-md bg-white p-3 ring-1 ring-slate-200" data-wait-option={o}>
      <div className="flex items-center justify-between gap-2">
        <p className="text-[13px] font-semibold text-slate-800">Branch {o + 1}</p>
        <Button variant="ghost" size="sm" icon={<TrashIcon />} onClick={onRemove} aria-label={`Remove option ${o + 1}`}>
          Remove
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={`Option ${o + 1} label`} error={errorAt(`${at}.label`)} hint="Matches a reply with this text (or a button with this title).">
          <Input value={option.label} onChange={(e) => onChange({ ...option, label: e.target.value })} />
        </Field>
        <Field label={`Option ${o + 1} id`} optional error={errorAt(`${at}.id`)} hint="What vars.reply_option gets when this option matches.">
          <Input mono value={option.id} placeholder={idFromTitle(option.label, o)} onChange={(e) => onChange({ ...option, id: e.target.value })} />
        </Field>
      </div>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,14rem)]">
        <div className="space-y-1.5">
          <p className="text-[13px] font-medium text-slate-800">Other words that pick it</p>
          <ChipsInput
            label={`Option ${o + 1} keywords`}
            values={option.keywords ?? []}
            onChange={(keywords) => onChange({ ...option, keywords })}
            placeholder="Optional: type and press Enter"
            invalid={Boolean(keywordsError)}
          />
          {keywordsError && (
            <p role="alert" className="text-xs font-medium text-red-600">
              {keywordsError}
            </p>
          )}
        </div>
        <Field label={`Option ${o + 1} match`} error={errorAt(`${at}.matchMode`)}>
          <Select value={option.matchMode ?? "EXACT"} onChange={(e) => onChange({ ...option, matchMode: e.target.value as MatchMode })}>
            {MATCH_CHOICES.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
    </li>
  );
}

/**
 * wait_reply: how long to wait, and the options the answer is matched against. Each option is a
 * branch the answer can take: it sets vars.reply_option to the option's id, which the next steps read
 * (a run_function decides with it). What follows in words: every branch, no match, and no answer.
 */
export function WaitReplyFields({ value, onChange, path, errorAt, steps, index }: StepFieldProps<WaitReply>) {
  const options = value.options ?? [];
  const setOptions = (next: Option[]) => onChange({ ...value, options: next });
  const source = earlierButtons(steps, index);
  const hours = value.timeout_hours ?? DEFAULT_HOURS;
  const then = index + 1 < steps.length ? `then step ${index + 2}` : "then the run completes";
  return (
    <div className="space-y-4">
      <Field label="Wait up to (hours)" error={errorAt(`${path}.timeout_hours`)} hint={`1 to ${MAX_HOURS}; 24 when left empty.`}>
        <Input
          type="number"
          min={1}
          max={MAX_HOURS}
          className="w-40"
          placeholder={String(DEFAULT_HOURS)}
          value={value.timeout_hours === undefined ? "" : Number.isFinite(value.timeout_hours) ? String(value.timeout_hours) : ""}
          onChange={(e) => {
            const text = e.target.value.trim();
            const { timeout_hours: _omit, ...rest } = value;
            onChange(text === "" ? rest : { ...rest, timeout_hours: Number(text) });
          }}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-[13px] font-medium text-slate-800">Answer options</legend>
        {options.length > 0 && (
          <ul className="space-y-2" aria-label="Answer options">
            {options.map((option, o) => (
              <OptionRow
                key={o}
                option={option}
                o={o}
                path={path}
                errorAt={errorAt}
                onChange={(next) => setOptions(options.map((item, i) => (i === o ? next : item)))}
                onRemove={() => setOptions(options.filter((_, i) => i !== o))}
              />
            ))}
          </ul>
        )}
        {errorAt(`${path}.options`) && (
          <p role="alert" className="text-xs font-medium text-red-600">
            {errorAt(`${path}.options`)}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button size="sm" icon={<PlusIcon />} onClick={() => setOptions([...options, { id: "", label: "" }])}>
            Add option
          </Button>
          {source && options.length === 0 && (
            <Button size="sm" onClick={() => setOptions(source.buttons.map((button) => ({ id: button.id, label: button.title })))}>
              Use the buttons of step {source.step + 1}
            </Button>
          )}
        </div>
      </fieldset>
      <div className="rounded-md bg-amber-50/60 px-3 py-2 text-[13px] text-slate-700 ring-1 ring-amber-600/20">
        <p className="font-medium text-slate-800">What happens next</p>
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {options.map((option, o) => (
            <li key={o}>
              Answer “{option.label || `option ${o + 1}`}” → <code className="font-mono text-[12px]">vars.reply_option</code> ={" "}
              <code className="font-mono text-[12px]">{option.id || idFromTitle(option.label, o)}</code>, {then}
            </li>
          ))}
          <li>
            {options.length ? "Any other answer" : "Any answer"} → <code className="font-mono text-[12px]">vars.reply_text</code> holds it
            {options.length ? ", vars.reply_option is empty" : ""}, {then}
          </li>
          <li>No answer within {hours} h → the run ends (timed out)</li>
        </ul>
      </div>
    </div>
  );
}
