/**
 * The provider's published Flow JSON limits that our checks mirror (docs/spec/decisions.md "Flows": ≤ 100
 * screens, ≤ 50 components per screen, Footer label ≤ 35, TextHeading ≤ 80, TextBody ≤ 4096, input labels
 * ≤ 20). The rest come from the provider's component reference: option counts, option titles, helper text,
 * the OptIn label (a consent sentence, so longer than an input label) and TextCaption. One table feeds the
 * draft checks and the Flow JSON checks, so a draft that passes compiles to JSON that passes.
 */

export const FLOW_JSON_VERSION = "7.3";
export const DATA_API_VERSION = "3.0";

/** Versions the provider still publishes; older ones are frozen or retired there. */
export const SUPPORTED_FLOW_JSON_VERSIONS: ReadonlySet<string> = new Set(["5.1", "6.0", "6.1", "6.2", "6.3", "7.0", "7.1", "7.2", "7.3"]);

export const MAX_SCREENS = 100;
export const MAX_COMPONENTS_PER_SCREEN = 50;

export const MAX_SCREEN_TITLE = 80;
export const MAX_HEADING = 80;
export const MAX_SUBHEADING = 80;
export const MAX_BODY = 4096;
export const MAX_CAPTION = 409;
export const MAX_FOOTER_LABEL = 35;
const MAX_INPUT_LABEL = 20;
const MAX_OPTIN_LABEL = 120;
export const MAX_HELPER_TEXT = 80;
export const MAX_OPTION_TITLE = 30;

/** Option counts by component: a Dropdown lists up to 200, radio and checkbox groups up to 20; each needs one. */
export const MAX_OPTIONS: Readonly<Record<string, number>> = { Dropdown: 200, RadioButtonsGroup: 20, CheckboxGroup: 20 };
export const MIN_OPTIONS = 1;

/** The screen name the provider keeps for its own success screen; compared case-insensitively. */
const RESERVED_SCREEN_ID = "SUCCESS";

/** Screen ids: letters and underscores only. */
export const SCREEN_ID_PATTERN = /^[A-Za-z_]+$/;

/** Field names: letters, digits and underscores, starting with a letter (they become `${form.<name>}` keys). */
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Keys the completion message carries besides the fields, so no field may take them. */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set(["flow_token"]);

export function isReservedScreenId(id: string): boolean {
  return id.toUpperCase() === RESERVED_SCREEN_ID;
}

/** Label limit by component type. */
export function labelLimit(componentType: string): number {
  return componentType === "OptIn" ? MAX_OPTIN_LABEL : MAX_INPUT_LABEL;
}
