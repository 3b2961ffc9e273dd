import { exampleData, resolvePayload, resolveValue, type BindingScope, type FormValue } from "./bindings";
import type { FlowComponent, FlowScreen, RawAction } from "./flow-json-read";
import { checkForm, type FieldRule } from "./form-check";

/**
 * The part of a screen that decides what the customer's phone sends, without React: the data a screen
 * is drawn with, the values its inputs start with, and what a Footer (or EmbeddedLink) press asks for.
 * FlowScreenView draws with it; the editor's "Try it" and the sandbox phone walk a flow with it, so the
 * completion they show is the one the provider would send.
 */

/** What a Footer (or an EmbeddedLink) press asks for, with `${data.x}` / `${form.x}` already substituted. */
export type FlowAction =
  | { name: "navigate"; next: string; payload: Record<string, unknown> }
  | { name: "complete"; payload: Record<string, unknown> }
  | { name: "data_exchange"; payload: Record<string, unknown> };

export const truthy = (value: unknown) => value === true || value === "true";

/** `visible` absent or anything but false (after resolving a `${...}` reference): shown. */
function isVisible(component: FlowComponent, scope: BindingScope): boolean {
  if (component.visible === undefined) return true;
  const value = resolveValue(component.visible, scope);
  return value !== false && value !== "false";
}

/**
 * The value an input starts with: its init-value (or the Form's init-values), resolved, and nothing
 * when the flow sets none. An input the customer never touches then has no value at all, so it is
 * absent from the payload as it is from the provider's (not "", [] or false).
 */
function initialValue(component: FlowComponent, scope: BindingScope): FormValue | undefined {
  if (component.kind !== "input" && component.kind !== "choice" && component.kind !== "optin") return undefined;
  const value = resolveValue(component.initValue, scope);
  if (value === undefined || value === null) return undefined;
  if (component.kind === "optin") return truthy(value);
  if (component.kind === "choice" && component.control === "checkbox") return Array.isArray(value) ? value.map(String) : undefined;
  return String(value);
}

/** What checkForm needs to know about an input (null for components that hold no value). */
function ruleOf(component: FlowComponent, scope: BindingScope): FieldRule | null {
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

/**
 * The data a screen is drawn with. A still picture (no data given) fills `${data.x}` with the declared
 * `__example__` values; a walk uses exactly what it was given. An example there would travel on in the
 * next payload as if the customer had entered it (the preview once completed with an optional dropdown's
 * example `option_1` that nobody had picked).
 */
export function screenDataOf(screen: FlowScreen, data: Record<string, unknown> | undefined): Record<string, unknown> {
  return data === undefined ? exampleData(screen.declaredData) : data;
}

/** The screen as it opens with this data (none: a still picture): what `${data.x}` reads, and what its inputs start with. */
export function openScreen(screen: FlowScreen, data: Record<string, unknown> | undefined): BindingScope {
  const screenData = screenDataOf(screen, data);
  return { data: screenData, form: initialForm(screen, screenData) };
}

/** The screen's inputs with the values they start with (only those the flow sets). */
function initialForm(screen: FlowScreen, data: Record<string, unknown>): Record<string, FormValue> {
  const scope: BindingScope = { data, form: {} };
  const values: Record<string, FormValue> = {};
  for (const component of screen.components) {
    const value = initialValue(component, scope);
    if (value !== undefined && "name" in component) values[component.name] = value;
  }
  return values;
}

export function shownComponents(screen: FlowScreen, scope: BindingScope): FlowComponent[] {
  return screen.components.filter((component) => isVisible(component, scope));
}

function toAction(action: RawAction, scope: BindingScope): FlowAction | null {
  const payload = resolvePayload(action.payload, scope);
  if (action.name === "navigate") return action.next ? { name: "navigate", next: action.next, payload } : null;
  if (action.name === "complete" || action.name === "data_exchange") return { name: action.name, payload };
  return null;
}

export type Press = { kind: "invalid"; errors: Record<string, string> } | { kind: "action"; action: FlowAction } | { kind: "none" };

/**
 * A press of `action` on the screen with these values: a Footer checks the shown inputs first (as the
 * phone does, required ones included) and goes nowhere while one has a problem; a link does not check.
 */
export function press(screen: FlowScreen, scope: BindingScope, action: RawAction | null, validate: boolean): Press {
  if (!action) return { kind: "none" };
  if (validate) {
    const rules = shownComponents(screen, scope)
      .map((component) => ruleOf(component, scope))
      .filter((rule): rule is FieldRule => rule !== null);
    const errors = checkForm(rules, scope.form);
    if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
  }
  const flowAction = toAction(action, scope);
  return flowAction ? { kind: "action", action: flowAction } : { kind: "none" };
}

/** The screen's Footer press (what its submit button does), or "none" when it has no shown Footer. */
export function pressFooter(screen: FlowScreen, scope: BindingScope): Press {
  const footer = shownComponents(screen, scope).find((component) => component.kind === "footer");
  return footer?.kind === "footer" ? press(screen, scope, footer.action, true) : { kind: "none" };
}
