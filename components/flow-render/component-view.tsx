"use client";

import { resolveText, resolveValue, type BindingScope, type FormValue } from "./bindings";
import { DropdownControl, GroupControl, OptInControl } from "./choice-controls";
import type { FlowComponent, RawAction } from "./flow-json-read";
import { readOptions } from "./flow-json-read";
import type { FieldRule } from "./form-check";
import { TextControl } from "./input-controls";
import { FlowImage, FlowLink, FlowText, FlowUnknown } from "./text-controls";

const truthy = (value: unknown) => value === true || value === "true";

/** `visible` absent or anything but false (after resolving a `${...}` reference): shown. */
export function isVisible(component: FlowComponent, scope: BindingScope): boolean {
  if (component.visible === undefined) return true;
  const value = resolveValue(component.visible, scope);
  return value !== false && value !== "false";
}

/** The value an input starts with: its init-value (or the Form's init-values), resolved. */
export function initialValue(component: FlowComponent, scope: BindingScope): FormValue | undefined {
  if (component.kind !== "input" && component.kind !== "choice" && component.kind !== "optin") return undefined;
  const value = resolveValue(component.initValue, scope);
  if (component.kind === "optin") return truthy(value);
  if (component.kind === "choice" && component.control === "checkbox") return Array.isArray(value) ? value.map(String) : [];
  return value === undefined || value === null ? "" : String(value);
}

/** What checkForm needs to know about an input (null for components that hold no value). */
export function ruleOf(component: FlowComponent, scope: BindingScope): FieldRule | null {
  const required = "required" in component && truthy(resolveValue(component.required, scope));
  if (component.kind === "input") {
    return {
      name: component.name,
      kind: component.control,
      required,
      inputType: component.inputType,
      minChars: component.minChars,
      maxChars: component.maxChars,
    };
  }
  if (component.kind === "choice") {
    const kind = component.control === "checkbox" ? "multi" : "single";
    return { name: component.name, kind, required, minSelected: component.minSelected, maxSelected: component.maxSelected };
  }
  if (component.kind === "optin") return { name: component.name, kind: "optin", required };
  return null;
}

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
