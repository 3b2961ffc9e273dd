import type { FlowDraftFieldType } from "@/lib/client/flows";

/**
 * The draft's field types, in the order the builder offers them: a copy of DRAFT_FIELD_TYPES
 * (lib/domain/flows/flow-json/types.ts), because the browser may import the domain's types but not
 * its values. `satisfies` and the check below fail the type check if the two lists drift apart.
 */
export const FIELD_TYPES = [
  "text",
  "textarea",
  "email",
  "phone",
  "number",
  "date",
  "dropdown",
  "radio",
  "checkbox",
  "optin",
] as const satisfies readonly FlowDraftFieldType[];

type Missing = Exclude<FlowDraftFieldType, (typeof FIELD_TYPES)[number]>;
const everyTypeListed: [Missing] extends [never] ? true : Missing = true;
void everyTypeListed;

export const FIELD_TYPE_LABELS: Record<FlowDraftFieldType, string> = {
  text: "Short text",
  textarea: "Long text",
  email: "Email",
  phone: "Phone number",
  number: "Number",
  date: "Date",
  dropdown: "Dropdown",
  radio: "Single choice",
  checkbox: "Multiple choice",
  optin: "Opt-in",
};

/**
 * Which settings each type can carry, as the compiler maps them (lib/domain/flows/flow-json/compile-components.ts
 * supportsSetting; a copy, the browser cannot import the domain): anything else would be a finding
 * (UNSUPPORTED_SETTING), so the builder does not offer it.
 */
const TEXT_INPUT = new Set<FlowDraftFieldType>(["text", "email", "phone", "number"]);

/** Types whose value is one or more option ids (the dropdown, radio and checkbox fields). */
export const hasOptions = (type: FlowDraftFieldType) => type === "dropdown" || type === "radio" || type === "checkbox";

/** Dropdowns and opt-ins show no helper text. */
export const hasHelperText = (type: FlowDraftFieldType) => type !== "dropdown" && type !== "optin";

/** Text inputs take both limits; a long text only a maximum. */
export const hasMinLength = (type: FlowDraftFieldType) => TEXT_INPUT.has(type);
export const hasMaxLength = (type: FlowDraftFieldType) => TEXT_INPUT.has(type) || type === "textarea";
