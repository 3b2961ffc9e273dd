"use client";

import { Button, Field, Input, PlusIcon, TrashIcon } from "@/components/ui";
import type { AutomationStep } from "@/lib/client/automations";
import { idFromTitle } from "../model/draft";
import { VariableText } from "./variable-text";

type SendReply = NonNullable<AutomationStep["send_reply"]>;

// decisions.md: up to 3 reply buttons, a title of at most 20 characters.
const MAX_BUTTONS = 3;

export interface StepFieldProps<T> {
  value: T;
  onChange: (value: T) => void;
  /** "steps.<i>.<kind>": where this step's fields' issues are placed. */
  path: string;
  errorAt: (field: string) => string | undefined;
  steps: readonly AutomationStep[];
  index: number;
}

/** send_reply: the text (with placeholders) and up to three reply buttons. */
export function ReplyFields({ value, onChange, path, errorAt, steps, index }: StepFieldProps<SendReply>) {
  const buttons = value.buttons ?? [];
  const setButtons = (next: SendReply["buttons"]) => onChange({ ...value, buttons: next });
  return (
    <div className="space-y-4">
      <VariableText
        label="Message"
        value={value.text}
        onChange={(text) => onChange({ ...value, text })}
        steps={steps}
        index={index}
        maxLength={4096}
        error={errorAt(`${path}.text`)}
      />
      <fieldset className="space-y-2">
        <legend className="text-[13px] font-medium text-slate-800">Reply buttons</legend>
        <p className="text-xs text-slate-500">Up to three. The customer&apos;s tap comes back as a reply a “Wait for reply” step or a keyword can match.</p>
        {buttons.map((button, b) => (
          <div key={b} className="grid items-start gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,10rem)_auto]" data-reply-button={b}>
            <Field label={`Button ${b + 1} title`} error={errorAt(`${path}.buttons.${b}.title`)}>
              <Input
                value={button.title}
                maxLength={20}
                onChange={(e) => setButtons(buttons.map((item, i) => (i === b ? { ...item, title: e.target.value } : item)))}
              />
            </Field>
            <Field label={`Button ${b + 1} id`} optional error={errorAt(`${path}.buttons.${b}.id`)}>
              <Input
                mono
                value={button.id}
                placeholder={idFromTitle(button.title, b)}
                onChange={(e) => setButtons(buttons.map((item, i) => (i === b ? { ...item, id: e.target.value } : item)))}
              />
            </Field>
            <Button
              variant="ghost"
              size="icon"
              className="mt-6"
              aria-label={`Remove button ${b + 1}`}
              onClick={() => setButtons(buttons.filter((_, i) => i !== b))}
            >
              <TrashIcon />
            </Button>
          </div>
        ))}
        {errorAt(`${path}.buttons`) && (
          <p role="alert" className="text-xs font-medium text-red-600">
            {errorAt(`${path}.buttons`)}
          </p>
        )}
        {buttons.length < MAX_BUTTONS && (
          <Button size="sm" icon={<PlusIcon />} onClick={() => setButtons([...buttons, { id: "", title: "" }])}>
            Add button
          </Button>
        )}
      </fieldset>
    </div>
  );
}
