"use client";

import { resolveText, resolveValue, type BindingScope, type FormValue } from "./bindings";
import { DropdownControl, GroupControl, OptInControl } from "./choice-controls";
import type { FlowComponent, RawAction } from "./flow-json-read";
import { readOptions } from "./flow-json-read";
import { TextControl } from "./input-controls";
import { truthy } from "./screen-state";
import { FlowImage, FlowLink, FlowText, FlowUnknown } from "./text-controls";

export interface ComponentViewProps {
  component: Exclude<FlowComponent, { kind: "footer" }>;
  scope: BindingScope;
  error?: string;
  onChange: (name: string, value: FormValue) => void;
  onLink: (action: RawAction | null) => void;
  interactive: boolean;
}

/** One component of a screen (the Footer is drawn by the screen, pinned at the bottom). */
export function ComponentView({ component, scope, error, onChange, onLink, interactive }: ComponentViewProps) {
  const text = (value: unknown) => resolveText(value, scope);
  switch (component.kind) {
    case "text":
      return <FlowText variant={component.variant} text={text(component.text)} />;
    case "link":
      return <FlowLink text={text(component.text)} disabled={!interactive} onPress={() => onLink(component.action)} />;
    case "image":
      return <FlowImage src={text(component.src)} alt={text(component.alt)} />;
    case "unknown":
      return <FlowUnknown type={component.type} />;
    default:
      return <InputView component={component} scope={scope} error={error} onChange={onChange} />;
  }
}

function InputView({
  component,
  scope,
  error,
  onChange,
}: Pick<ComponentViewProps, "scope" | "error" | "onChange"> & { component: Extract<FlowComponent, { kind: "input" | "choice" | "optin" }> }) {
  const value = scope.form[component.name];
  const field = {
    label: resolveText(component.label, scope) || component.name,
    required: truthy(resolveValue(component.required, scope)),
    helper:
      component.kind === "input" ? resolveText(component.helper, scope) : component.kind === "choice" ? resolveText(component.description, scope) : undefined,
    error,
  };
  const set = (next: FormValue) => onChange(component.name, next);
  if (component.kind === "optin") return <OptInControl {...field} checked={value === true} onChange={set} />;
  if (component.kind === "input") {
    return (
      <TextControl
        {...field}
        control={component.control}
        inputType={component.inputType}
        maxChars={component.maxChars}
        value={typeof value === "string" ? value : ""}
        onChange={set}
      />
    );
  }
  const options = readOptions(resolveValue(component.options, scope));
  if (component.control === "dropdown") return <DropdownControl {...field} options={options} value={typeof value === "string" ? value : ""} onChange={set} />;
  const picked = Array.isArray(value) ? value : typeof value === "string" && value ? [value] : [];
  const multiple = component.control === "checkbox";
  return <GroupControl {...field} multiple={multiple} options={options} value={picked} onChange={(ids) => set(multiple ? ids : (ids[0] ?? ""))} />;
}
