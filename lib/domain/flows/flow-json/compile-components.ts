import type { DraftField, DraftFieldType } from "./types";

/**
 * One draft field as the provider's input component (docs/spec/decisions.md "Flows"). Attribute names are
 * the provider's: kebab-case, `data-source` for options. Keys are written in a fixed order so the same
 * draft always compiles to byte-identical JSON.
 */

type Component = Record<string, unknown>;

const TEXT_INPUT_TYPES: Partial<Record<DraftFieldType, string>> = { text: "text", email: "email", phone: "phone", number: "number" };

const COMPONENT_OF: Record<DraftFieldType, string> = {
  text: "TextInput",
  email: "TextInput",
  phone: "TextInput",
  number: "TextInput",
  textarea: "TextArea",
  date: "DatePicker",
  dropdown: "Dropdown",
  radio: "RadioButtonsGroup",
  checkbox: "CheckboxGroup",
  optin: "OptIn",
};

/** The provider component a draft field type compiles to. */
export function componentTypeOf(type: DraftFieldType): string {
  return COMPONENT_OF[type];
}

/** Which draft settings each field type can carry; validateDraft reports the others as UNSUPPORTED_SETTING. */
export function supportsSetting(type: DraftFieldType, setting: "options" | "helper_text" | "min_length" | "max_length"): boolean {
  switch (setting) {
    case "options":
      return type === "dropdown" || type === "radio" || type === "checkbox";
    case "helper_text":
      return type !== "dropdown" && type !== "optin";
    case "min_length":
      return TEXT_INPUT_TYPES[type] !== undefined;
    case "max_length":
      return TEXT_INPUT_TYPES[type] !== undefined || type === "textarea";
  }
}

/** The attribute a field's helper_text becomes: selection groups call it a description. */
function helperAttribute(type: DraftFieldType): string {
  return type === "radio" || type === "checkbox" ? "description" : "helper-text";
}

export function fieldComponent(field: DraftField): Component {
  const type = field.type;
  const component: Component = { type: COMPONENT_OF[type], name: field.name, label: field.label };
  const inputType = TEXT_INPUT_TYPES[type];
  if (inputType) component["input-type"] = inputType;
  component.required = field.required === true;
  if (field.options !== undefined && supportsSetting(type, "options")) {
    component["data-source"] = field.options.map((option) => ({ id: option.id, title: option.title }));
  }
  if (field.helper_text !== undefined && supportsSetting(type, "helper_text")) component[helperAttribute(type)] = field.helper_text;
  if (inputType && field.min_length !== undefined) component["min-chars"] = field.min_length;
  if (inputType && field.max_length !== undefined) component["max-chars"] = field.max_length;
  if (type === "textarea" && field.max_length !== undefined) component["max-length"] = field.max_length;
  return component;
}

/** A sample value per type: the provider wants an `__example__` for every declared screen datum. */
function exampleOf(field: DraftField): unknown {
  const firstOption = field.options?.[0]?.id ?? "option_1";
  switch (field.type) {
    case "email":
      return "name@example.com";
    case "phone":
      return "+15551234567";
    case "number":
      return "42";
    case "date":
      return "2024-01-31";
    case "dropdown":
    case "radio":
      return firstOption;
    case "checkbox":
      return [firstOption];
    case "optin":
      return true;
    case "text":
    case "textarea":
      return "Example";
  }
}

/**
 * How a screen declares a value carried from an earlier screen: checkbox groups give an array of option
 * ids, opt-ins a boolean, every other input a string (a number input's value arrives as text).
 */
export function dataDeclaration(field: DraftField): Component {
  if (field.type === "checkbox") return { type: "array", items: { type: "string" }, __example__: exampleOf(field) };
  if (field.type === "optin") return { type: "boolean", __example__: exampleOf(field) };
  return { type: "string", __example__: exampleOf(field) };
}
