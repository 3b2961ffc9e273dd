import { orderScreens } from "./draft-order";
import { INPUT_COMPONENTS, dynamicRef, isRecord, navigateTarget, viewOf, type FlowView, type Json, type ScreenView } from "./flow-json-read";
import type { Draft, DraftFieldType, FieldSchemaItem, FlowJson } from "./types";

/**
 * field_schema (docs/spec/decisions.md "Flows"): [{name, type, required, screen}] in the order a customer
 * fills them in. Submissions are checked against it.
 */

/** A draft's fields in navigation order (the order compileDraft writes the terminal payload in). */
export function fieldSchemaOfDraft(draft: Draft): FieldSchemaItem[] {
  const seen = new Set<string>();
  return orderScreens(draft).flatMap(({ screen }) =>
    screen.fields.flatMap((field) => {
      if (seen.has(field.name)) return [];
      seen.add(field.name);
      return [{ name: field.name, type: field.type, required: field.required === true, screen: screen.id }];
    }),
  );
}

const TEXT_INPUT_TYPES: Readonly<Record<string, DraftFieldType>> = { email: "email", phone: "phone", number: "number" };

const COMPONENT_TYPES: Readonly<Record<string, DraftFieldType>> = {
  TextArea: "textarea",
  DatePicker: "date",
  CalendarPicker: "date",
  Dropdown: "dropdown",
  RadioButtonsGroup: "radio",
  CheckboxGroup: "checkbox",
  ChipsSelector: "checkbox",
  OptIn: "optin",
};

/** The closest draft type of a component (password, passcode and unknown inputs → text). */
function typeOfComponent(component: Json): DraftFieldType {
  const type = String(component.type);
  if (type === "TextInput") return TEXT_INPUT_TYPES[String(component["input-type"])] ?? "text";
  return COMPONENT_TYPES[type] ?? "text";
}

interface Source {
  component: Json;
  screen: string;
}

/**
 * A given Flow JSON's field_schema: the keys of its terminal screens' `complete` payloads, in order. Each
 * value that is `${form.x}` names an input of that screen; `${data.x}` is followed back through the
 * navigate (or, in endpoint flows, data_exchange) payloads that carried it, to the input it started
 * from. That input gives the type, required and screen; a value we cannot follow is optional text.
 * Null when no terminal screen completes.
 */
export function fieldSchemaOfFlowJson(json: FlowJson): FieldSchemaItem[] | null {
  const view = viewOf(json);
  const items = new Map<string, FieldSchemaItem>();
  let completes = false;
  for (const screen of view.screens) {
    if (screen.screen.terminal !== true || screen.id === null) continue;
    for (const at of screen.actions) {
      if (at.action.name !== "complete") continue;
      completes = true;
      const payload = isRecord(at.action.payload) ? at.action.payload : {};
      for (const [key, value] of Object.entries(payload)) {
        if (items.has(key)) continue;
        const source = resolve(view, json, screen, value, new Set());
        items.set(key, {
          name: key,
          type: source ? typeOfComponent(source.component) : "text",
          required: source ? source.component.required === true : false,
          screen: source?.screen ?? screen.id,
        });
      }
    }
  }
  return completes ? [...items.values()] : null;
}

function resolve(view: FlowView, json: FlowJson, screen: ScreenView, value: unknown, visited: Set<ScreenView>): Source | null {
  const ref = dynamicRef(value);
  if (!ref || screen.id === null || visited.has(screen)) return null;
  if (ref.source === "form") {
    const input = screen.components.find((c) => INPUT_COMPONENTS.has(c.type) && c.component.name === ref.name);
    return input ? { component: input.component, screen: screen.id } : null;
  }
  const seen = new Set(visited).add(screen);
  for (const { from, payload } of carriers(view, json, screen.id)) {
    if (!(ref.name in payload)) continue;
    const found = resolve(view, json, from, payload[ref.name], seen);
    if (found) return found;
  }
  return null;
}

/** The payloads that bring data into screen `target`: navigates to it, and data_exchange calls on a route to it. */
function carriers(view: FlowView, json: FlowJson, target: string): Array<{ from: ScreenView; payload: Json }> {
  const model = isRecord(json.routing_model) ? json.routing_model : {};
  const found: Array<{ from: ScreenView; payload: Json }> = [];
  for (const from of view.screens) {
    const routes = from.id !== null && Array.isArray(model[from.id]) && (model[from.id] as unknown[]).includes(target);
    for (const at of from.actions) {
      const carries = (at.action.name === "navigate" && navigateTarget(at.action) === target) || (at.action.name === "data_exchange" && routes);
      if (carries && isRecord(at.action.payload)) found.push({ from, payload: at.action.payload });
    }
  }
  return found;
}
