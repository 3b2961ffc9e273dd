"use client";

import { Field, Input, Select } from "@/components/ui";
import { FlowPicker, FunctionPicker } from "@/components/pickers/resource-pickers";
import type { AutomationStep } from "@/lib/client/automations";
import { useFlows } from "@/lib/client/flows";
import { useFunctions } from "@/lib/client/functions";
import { duration } from "../model/summaries";
import type { StepFieldProps } from "./reply-fields";
import { VariableText } from "./variable-text";

type Delay = NonNullable<AutomationStep["delay"]>;
type Pause = NonNullable<AutomationStep["pause_replies"]>;
type SendFlow = NonNullable<AutomationStep["send_flow"]>;
type RunFunction = NonNullable<AutomationStep["run_function"]>;

// decisions.md / definition.ts: a delay lasts 1 minute to 30 days.
const MAX_DELAY_MINUTES = 60 * 24 * 30;

const asNumber = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

/** delay: minutes (durable: a restart during the wait does not lose it). */
export function DelayFields({ value, onChange, path, errorAt }: StepFieldProps<Delay>) {
  const minutes = Number.isFinite(value.minutes) ? value.minutes : 0;
  return (
    <Field
      label="Wait (minutes)"
      error={errorAt(`${path}.minutes`)}
      hint={minutes > 0 ? `Waits ${duration(minutes)}, then goes on; survives restarts.` : "1 minute to 30 days."}
    >
      <Input
        type="number"
        min={1}
        max={MAX_DELAY_MINUTES}
        step={1}
        className="w-40"
        value={Number.isFinite(value.minutes) ? String(value.minutes) : ""}
        onChange={(e) => onChange({ minutes: asNumber(e.target.value) })}
      />
    </Field>
  );
}

/** pause_replies: handoff on (a person takes over), which ends the run. */
export function PauseFields({ value, onChange, path, errorAt }: StepFieldProps<Pause>) {
  return (
    <Field
      label="Reason"
      optional
      error={errorAt(`${path}.reason`)}
      hint="Turns handoff on (a person answers from the inbox) and ends the run. The reason shows in the inbox."
    >
      <Input value={value.reason ?? ""} maxLength={512} onChange={(e) => onChange({ reason: e.target.value })} />
    </Field>
  );
}

/** send_flow: a published flow, with the message's optional texts (placeholders allowed). */
export function SendFlowFields({ value, onChange, path, errorAt, steps, index, projectId }: StepFieldProps<SendFlow> & { projectId: string }) {
  const flows = useFlows(projectId);
  // A config-owned flow is named by its key (the contact's language then picks the locale variant), as config documents name it.
  const refOf = (id: string) => flows.data?.pages.flatMap((page) => page.data).find((flow) => flow.id === id)?.config_key ?? id;
  const text = (field: "body_text" | "header_text" | "footer_text", label: string, max: number) => (
    <VariableText
      label={label}
      optional
      multiline={field === "body_text"}
      value={value[field] ?? ""}
      onChange={(next) => onChange({ ...value, [field]: next })}
      steps={steps}
      index={index}
      maxLength={max}
      error={errorAt(`${path}.${field}`)}
    />
  );
  return (
    <div className="space-y-4">
      <FlowPicker
        projectId={projectId}
        value={value.flow}
        onChange={(flow) => onChange({ ...value, flow: refOf(flow) })}
        error={errorAt(`${path}.flow`)}
        hint="Published flows of this project; the contact's preferred language picks the locale variant."
      />
      {text("body_text", "Message body", 1024)}
      <Field label="Button label" optional error={errorAt(`${path}.flow_cta`)} hint="The button that opens the flow (30 characters).">
        <Input value={value.flow_cta ?? ""} maxLength={30} onChange={(e) => onChange({ ...value, flow_cta: e.target.value })} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {text("header_text", "Header", 60)}
        {text("footer_text", "Footer", 60)}
      </div>
    </div>
  );
}

const RESULT_MODES: Array<{ value: NonNullable<RunFunction["result_mode"]>; label: string; hint: string }> = [
  { value: "reply", label: "Reply with the result", hint: "Sends what the function returns: a string, or the value at the reply field (default text)." },
  { value: "variables", label: "Store the result in variables", hint: "Later steps read it as {{vars.NAME}}; an object without a name merges its keys." },
  { value: "side_effect", label: "Ignore the result", hint: "For functions that act elsewhere (a CRM, an order system)." },
];

/** run_function: a deployed function, and what to do with what it returns. */
export function RunFunctionFields({ value, onChange, path, errorAt, projectId }: StepFieldProps<RunFunction> & { projectId: string }) {
  const functions = useFunctions(projectId);
  // Named by its slug, as a config document names it (the id works too, but reads as noise in YAML).
  const slugOf = (id: string) => functions.data?.pages.flatMap((page) => page.data).find((fn) => fn.id === id)?.slug ?? id;
  const mode = value.result_mode ?? "side_effect";
  const choice = RESULT_MODES.find((item) => item.value === mode)!;
  return (
    <div className="space-y-4">
      <FunctionPicker
        projectId={projectId}
        value={value.function}
        onChange={(fn) => onChange({ ...value, function: slugOf(fn) })}
        error={errorAt(`${path}.function`)}
        hint="Deployed, active functions. It gets the message event and the run's variables ({{vars.reply_text}}, …)."
      />
      <Field label="Result" hint={choice.hint} error={errorAt(`${path}.result_mode`)}>
        <Select value={mode} onChange={(e) => onChange({ ...value, result_mode: e.target.value as RunFunction["result_mode"] })}>
          {RESULT_MODES.map((item) => (
            <option key={item.value} value={item.value}>
              {item.label}
            </option>
          ))}
        </Select>
      </Field>
      {mode === "variables" && (
        <Field label="Variable name" optional error={errorAt(`${path}.variable_name`)} hint="Letters, digits and _; read later as {{vars.NAME}}.">
          <Input mono value={value.variable_name ?? ""} onChange={(e) => onChange({ ...value, variable_name: e.target.value })} />
        </Field>
      )}
      {mode === "reply" && (
        <Field label="Reply field" optional error={errorAt(`${path}.reply_field`)} hint="When the function returns an object: the field sent as the reply.">
          <Input mono value={value.reply_field ?? ""} placeholder="text" onChange={(e) => onChange({ ...value, reply_field: e.target.value })} />
        </Field>
      )}
    </div>
  );
}
