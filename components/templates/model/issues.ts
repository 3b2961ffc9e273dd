import type { BuiltRequest, TemplateDraft } from "./draft";

/**
 * The server's 400 issues (keyed by request path, like `components.1.text` or
 * `components.3.buttons.0.url`) placed on the builder's fields. Each issue goes to the most
 * specific field path that is it or contains it; a section's own path (`components.1`) catches what
 * none of its fields shows, and what belongs to no section is left for the banner.
 */

export type Issues = Record<string, string[]>;

export interface PlacedIssues {
  /** Messages by the field path the form shows them under. */
  byField: Record<string, string[]>;
  /** Issues no field shows (e.g. `components`: "A BODY component is required."), for the banner. */
  rest: Array<{ path: string; messages: string[] }>;
}

const TOP_LEVEL = ["channel_id", "name", "language", "category", "parameter_format"];
const HEADER_FIELDS = ["format", "text", "example"];
const BODY_FIELDS = ["text", "example", "add_security_recommendation"];
const FOOTER_FIELDS = ["text", "code_expiration_minutes"];
const BUTTON_FIELDS = [
  "type",
  "text",
  "url",
  "example",
  "phone_number",
  "flow_id",
  "flow_name",
  "flow_action",
  "navigate_screen",
  "otp_type",
  "supported_apps",
  "zero_tap_terms_accepted",
];

/** Every path a field of the builder shows issues for, given where each section landed in the request. */
export function fieldPaths(draft: Pick<TemplateDraft, "buttons">, at: BuiltRequest["at"]): string[] {
  const paths = [...TOP_LEVEL];
  const section = (index: number | undefined, fields: string[]) => {
    if (index === undefined) return;
    paths.push(`components.${index}`, ...fields.map((field) => `components.${index}.${field}`));
  };
  section(at.HEADER, HEADER_FIELDS);
  section(at.BODY, BODY_FIELDS);
  section(at.FOOTER, FOOTER_FIELDS);
  if (at.BUTTONS !== undefined) {
    const base = `components.${at.BUTTONS}`;
    paths.push(base, `${base}.buttons`);
    draft.buttons.forEach((_button, j) => paths.push(`${base}.buttons.${j}`, ...BUTTON_FIELDS.map((field) => `${base}.buttons.${j}.${field}`)));
  }
  return paths;
}

/** The longest field path equal to `path` or one of its ancestors (`a.b` contains `a.b.c`, not `a.bc`). */
function owner(path: string, fields: ReadonlySet<string>): string | undefined {
  const parts = path.split(".");
  for (let length = parts.length; length > 0; length--) {
    const candidate = parts.slice(0, length).join(".");
    if (fields.has(candidate)) return candidate;
  }
  return undefined;
}

export function placeIssues(issues: Issues | undefined, fields: readonly string[]): PlacedIssues {
  const known = new Set(fields);
  const placed: PlacedIssues = { byField: {}, rest: [] };
  for (const [path, messages] of Object.entries(issues ?? {})) {
    const field = owner(path, known);
    if (field) (placed.byField[field] ??= []).push(...messages);
    else placed.rest.push({ path, messages });
  }
  return placed;
}
