"use client";

import { useMemo, useRef, useState, type FormEvent, type JSX } from "react";
import { exampleData, resolvePayload, resolveText, resolveValue, type BindingScope, type FormValue } from "./bindings";
import { ComponentView, initialValue, isVisible, ruleOf } from "./component-view";
import { readScreen, type FlowComponent, type FlowScreen, type RawAction } from "./flow-json-read";
import { checkForm, type FieldRule } from "./form-check";
import { ScreenChrome, ScreenFooter } from "./screen-chrome";

/** What a Footer (or an EmbeddedLink) press asks for, with `${data.x}` / `${form.x}` already substituted. */
export type FlowAction =
  | { name: "navigate"; next: string; payload: Record<string, unknown> }
  | { name: "complete"; payload: Record<string, unknown> }
  | { name: "data_exchange"; payload: Record<string, unknown> };

export interface FlowScreenViewProps {
  /** The provider's Flow JSON ({version, screens: [...]}); read defensively. */
  flowJson: Record<string, unknown>;
  /** Which screen to draw. */
  screenId: string;
  /** The screen's data (a navigate payload, or what the data endpoint sent); the screen's `__example__` values fill the gaps. */
  data?: Record<string, unknown>;
  /** Interactive: inputs keep state, the Footer checks required fields and calls onAction. Otherwise a still picture. */
  interactive: boolean;
  onAction?: (action: FlowAction) => void;
}

/**
 * One screen of a WhatsApp Flow drawn from its Flow JSON, as the customer's phone shows it: text,
 * inputs, choices, opt-ins, and the Footer. It fills its container; the caller owns navigation (on
 * `navigate`, draw `next` with the payload as its data). Used by the Flows editor's preview and the
 * sandbox phone.
 */
export function FlowScreenView({ flowJson, screenId, data, interactive, onAction }: FlowScreenViewProps): JSX.Element {
  const screen = useMemo(() => readScreen(flowJson, screenId), [flowJson, screenId]);
  if (!screen) {
    return (
      <div role="alert" className="flex h-full items-center justify-center bg-white px-6 text-center text-sm text-slate-500">
        This Flow has no screen “{screenId}”.
      </div>
    );
  }
  // Keyed by screen: arriving on a screen starts with its own fresh inputs.
  return <ScreenForm key={screen.id} screen={screen} data={data} interactive={interactive} onAction={onAction} />;
}

function initialForm(components: FlowComponent[], scope: BindingScope): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const component of components) {
    const value = initialValue(component, scope);
    if (value !== undefined && "name" in component) values[component.name] = value;
  }
  return values;
}

function toAction(action: RawAction, scope: BindingScope): FlowAction | null {
  const payload = resolvePayload(action.payload, scope);
  if (action.name === "navigate") return action.next ? { name: "navigate", next: action.next, payload } : null;
  if (action.name === "complete" || action.name === "data_exchange") return { name: action.name, payload };
  return null;
}

interface ScreenFormProps extends Omit<FlowScreenViewProps, "flowJson" | "screenId"> {
  screen: FlowScreen;
}

function ScreenForm({ screen, data, interactive, onAction }: ScreenFormProps) {
  const screenData = useMemo(() => ({ ...exampleData(screen.declaredData), ...data }), [screen.declaredData, data]);
  const [values, setValues] = useState<Record<string, FormValue>>(() => initialForm(screen.components, { data: screenData, form: {} }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const scope: BindingScope = { data: screenData, form: values };
  const shown = screen.components.filter((component) => isVisible(component, scope));
  const footer = shown.find((component) => component.kind === "footer");

  const run = (action: RawAction | null, validate: boolean) => {
    if (!interactive || !action) return;
    if (validate) {
      const found = checkForm(
        shown.map((component) => ruleOf(component, scope)).filter((rule): rule is FieldRule => rule !== null),
        values,
      );
      setErrors(found);
      if (Object.keys(found).length > 0) {
        // After React has drawn the messages: take the customer to the first field to fix.
        requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
        return;
      }
    }
    const flowAction = toAction(action, scope);
    if (flowAction) onAction?.(flowAction);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (footer?.kind === "footer") run(footer.action, true);
  };
  const change = (name: string, value: FormValue) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors(({ [name]: _fixed, ...rest }) => rest);
  };

  const footerView =
    footer?.kind === "footer" ? (
      <ScreenFooter
        label={resolveText(footer.label, scope)}
        captions={{
          left: resolveText(footer.captions.left, scope),
          center: resolveText(footer.captions.center, scope),
          right: resolveText(footer.captions.right, scope),
        }}
        disabled={interactive && resolveValue(footer.enabled, scope) === false}
      />
    ) : null;
  return (
    <form ref={formRef} aria-label={screen.title} onSubmit={submit} noValidate className="h-full" data-screen-id={screen.id}>
      {/* A still picture is a disabled fieldset: nothing takes focus or input, and it stays readable to screen readers. */}
      <fieldset disabled={!interactive} className="contents">
        <ScreenChrome title={screen.title} footer={footerView}>
          {shown.map((component, index) =>
            component.kind === "footer" ? null : (
              <ComponentView
                key={`${index}-${"name" in component ? component.name : component.kind}`}
                component={component}
                scope={scope}
                error={"name" in component ? errors[component.name] : undefined}
                onChange={change}
                onLink={(action) => run(action, false)}
                interactive={interactive}
              />
            ),
          )}
        </ScreenChrome>
      </fieldset>
    </form>
  );
}
