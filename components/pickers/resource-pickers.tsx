"use client";

import type { ReactNode } from "react";
import { Field, Select } from "@/components/ui";
import { useFlows } from "@/lib/client/flows";
import { useFunctions } from "@/lib/client/functions";

/**
 * The project's flows and functions as pickers, shared by the Agent page's tools and the automation
 * builder. Each offers what can be used: PUBLISHED flows, deployed and active functions. `value` may
 * be an id, or what config-as-code also accepts (a flow's config key, a function's slug): the picker
 * shows that entry selected; a pick always hands back the id. A value that names nothing usable stays
 * shown as it is, so the field's error (from the server) explains it.
 */

interface PickerProps {
  projectId: string;
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
  label?: ReactNode;
  hint?: ReactNode;
}

const UNKNOWN = "__unknown__";

export function FlowPicker({ projectId, value, onChange, error, label = "Flow", hint }: PickerProps) {
  const flows = useFlows(projectId);
  const published = (flows.data?.pages.flatMap((p) => p.data) ?? []).filter((flow) => flow.status === "PUBLISHED");
  const selected = published.find((flow) => flow.id === value) ?? published.find((flow) => flow.config_key !== null && flow.config_key === value);
  const unknown = Boolean(value) && !selected && flows.isSuccess;
  return (
    <Field
      label={label}
      error={error}
      hint={flows.isSuccess && !published.length ? "No published flow yet: publish one on the Flows page." : (hint ?? "Published flows of this project.")}
    >
      <Select value={unknown ? UNKNOWN : (selected?.id ?? "")} onChange={(e) => e.target.value !== UNKNOWN && onChange(e.target.value)}>
        <option value="">{flows.isPending ? "Loading flows…" : "Pick a flow"}</option>
        {unknown && <option value={UNKNOWN}>{value} (not a published flow)</option>}
        {published.map((flow) => (
          <option key={flow.id} value={flow.id}>
            {flow.name}
            {flow.locale ? ` (${flow.locale})` : ""}
          </option>
        ))}
      </Select>
    </Field>
  );
}

export function FunctionPicker({ projectId, value, onChange, error, label = "Function", hint }: PickerProps) {
  const functions = useFunctions(projectId);
  const deployed = (functions.data?.pages.flatMap((p) => p.data) ?? []).filter((fn) => fn.is_active && fn.active_version_id);
  const selected = deployed.find((fn) => fn.id === value || fn.slug === value);
  const unknown = Boolean(value) && !selected && functions.isSuccess;
  return (
    <Field
      label={label}
      error={error}
      hint={functions.isSuccess && !deployed.length ? "No deployed function yet: deploy one on the Functions page." : (hint ?? "Deployed, active functions.")}
    >
      <Select value={unknown ? UNKNOWN : (selected?.id ?? "")} onChange={(e) => e.target.value !== UNKNOWN && onChange(e.target.value)}>
        <option value="">{functions.isPending ? "Loading functions…" : "Pick a function"}</option>
        {unknown && <option value={UNKNOWN}>{value} (not a deployed, active function)</option>}
        {deployed.map((fn) => (
          <option key={fn.id} value={fn.id}>
            {fn.name} ({fn.slug})
          </option>
        ))}
      </Select>
    </Field>
  );
}
