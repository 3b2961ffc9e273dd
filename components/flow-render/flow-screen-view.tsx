"use client";

import { useMemo, useRef, useState, type FormEvent, type JSX } from "react";
import { resolveText, resolveValue, type BindingScope, type FormValue } from "./bindings";
import { ComponentView } from "./component-view";
import { readScreen, type FlowScreen, type RawAction } from "./flow-json-read";
import { ScreenChrome, ScreenFooter } from "./screen-chrome";
import { openScreen, press, pressFooter, shownComponents, type FlowAction, type Press } from "./screen-state";

export type { FlowAction } from "./screen-state";

export interface FlowScreenViewProps {
  /** The provider's Flow JSON ({version, screens: [...]}); read defensively. */
  flowJson: Record<string, unknown>;
  /** Which screen to draw. */
  screenId: string;
  /** The screen's data (a navigate payload, or what the data endpoint sent). Without it (a still picture) the screen's `__example__` values stand in. */
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

interface ScreenFormProps extends Omit<FlowScreenViewProps, "flowJson" | "screenId"> {
  screen: FlowScreen;
}

function ScreenForm({ screen, data, interactive, onAction }: ScreenFormProps) {
  const opened = useMemo(() => openScreen(screen, data), [screen, data]);
  const screenData = opened.data;
  const [values, setValues] = useState<Record<string, FormValue>>(opened.form);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const scope: BindingScope = { data: screenData, form: values };
  const shown = shownComponents(screen, scope);
  const footer = shown.find((component) => component.kind === "footer");

  const follow = (pressed: Press) => {
    if (pressed.kind === "invalid") {
      setErrors(pressed.errors);
      // After React has drawn the messages: take the customer to the first field to fix.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    } else if (pressed.kind === "action") {
      onAction?.(pressed.action);
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!interactive) return;
    const pressed = pressFooter(screen, scope);
    if (pressed.kind !== "invalid") setErrors({});
    follow(pressed);
  };
  const onLink = (action: RawAction | null) => interactive && follow(press(screen, scope, action, false));
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
                onLink={onLink}
                interactive={interactive}
              />
            ),
          )}
        </ScreenChrome>
      </fieldset>
    </form>
  );
}
