/**
 * The authoring shapes of a Flow (docs/spec/decisions.md "Flows"): the draft an operator builds, the
 * provider's Flow JSON it compiles to, our validation findings and the derived field schema. Pure
 * data: the browser imports these types too.
 */

export const DRAFT_FIELD_TYPES = ["text", "textarea", "email", "phone", "number", "date", "dropdown", "radio", "checkbox", "optin"] as const;
export type DraftFieldType = (typeof DRAFT_FIELD_TYPES)[number];

interface DraftOption {
  id: string;
  title: string;
}

export interface DraftField {
  name: string;
  type: DraftFieldType;
  label: string;
  required?: boolean;
  options?: DraftOption[];
  helper_text?: string;
  min_length?: number;
  max_length?: number;
}

export interface DraftScreen {
  id: string;
  title: string;
  body?: string;
  fields: DraftField[];
  /** The screen this one navigates to; absent: terminal (completes the flow). */
  next?: string;
  submit_label?: string;
}

export interface Draft {
  entryScreenId: string;
  screens: DraftScreen[];
}

/** The provider's Flow JSON: kept loose (a given flow_json is stored as is), read defensively. */
export type FlowJson = Record<string, unknown>;

/** One of our findings: what is wrong, where (a JSON pointer into the draft or flow_json) and what to do. */
export interface FlowFinding {
  code: FlowFindingCode;
  message: string;
  /** RFC 6901 pointer into the saved `draft` or `flow_json`, e.g. "/screens/1/fields/0/name". */
  path: string;
  next_steps: string;
}

export type FlowFindingCode =
  | "INVALID_DRAFT"
  | "INVALID_FLOW_JSON"
  | "UNKNOWN_SCREEN"
  | "DUPLICATE_SCREEN"
  | "DUPLICATE_FIELD"
  | "INVALID_FIELD_NAME"
  | "NO_TERMINAL_SCREEN"
  | "UNREACHABLE_SCREEN"
  | "NAVIGATION_LOOP"
  | "INVALID_SCREEN_ID"
  | "TOO_MANY_SCREENS"
  | "TOO_MANY_COMPONENTS"
  | "TOO_MANY_OPTIONS"
  | "MISSING_OPTIONS"
  | "DUPLICATE_OPTION"
  | "TEXT_TOO_LONG"
  | "MISSING_FOOTER"
  | "TOO_MANY_FOOTERS"
  | "TERMINAL_WITHOUT_COMPLETE"
  | "PAYLOAD_MISMATCH"
  | "UNSUPPORTED_VERSION"
  | "UNKNOWN_COMPONENT"
  | "EMPTY_TEXT"
  | "INVALID_LENGTH_RANGE"
  | "UNSUPPORTED_SETTING";

/** field_schema items, in order (the spec's {name, type, required, screen}). */
export interface FieldSchemaItem {
  name: string;
  /** A draft field type; for a given flow_json the closest one (TextInput email → email, ...; unknown → text). */
  type: DraftFieldType;
  required: boolean;
  screen: string;
}

/** What every save derives from the draft or the Flow JSON. */
export interface FlowAnalysis {
  /** The Flow JSON to publish; null when the draft is too broken to compile. */
  flow_json: FlowJson | null;
  /** Null when it cannot be derived (no terminal screen could be read). */
  field_schema: FieldSchemaItem[] | null;
  /** Empty when the flow can be published. */
  validation_errors: FlowFinding[];
}

/** One submission problem, against field_schema. */
export interface SubmissionError {
  field: string;
  code: "REQUIRED" | "INVALID_NUMBER" | "INVALID_EMAIL" | "INVALID_DATE" | "INVALID_OPTION" | "INVALID_OPTIN" | "INVALID_TYPE" | "DISPATCH_EXPIRED";
  message: string;
}
