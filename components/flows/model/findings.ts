import type { FlowValidationIssue } from "@/lib/client/flows";
import type { SavedShape } from "./working-draft";

/**
 * validation_errors as the editor shows them. Two kinds arrive in the one list (docs/spec/decisions.md
 * "Flows"): our findings `{code, message, path, next_steps}`, a JSON pointer into the saved draft or
 * flow_json, which block publishing; and after a failed publish the provider's errors with line and
 * column numbers in the Flow JSON it was sent. A save the API refuses outright (400, a draft of the
 * wrong shape) is shown the same way, from the error's `issues`.
 */
export interface Finding {
  source: "ours" | "provider" | "request";
  code: string;
  message: string;
  nextSteps?: string;
  /** RFC 6901 pointer into the saved draft (draft flows) or flow_json. */
  path?: string;
  /** 1-based, for provider errors. */
  lines?: { start: number; end: number; columnStart?: number; columnEnd?: number };
}

const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

export function toFinding(issue: FlowValidationIssue): Finding {
  const lineStart = num(issue.line_start);
  const provider = lineStart !== undefined || typeof issue.code === "number" || "error_type" in issue || "fbtrace_id" in issue;
  const finding: Finding = { source: provider ? "provider" : "ours", code: String(issue.code), message: issue.message };
  if (issue.next_steps) finding.nextSteps = issue.next_steps;
  if (typeof issue.path === "string") finding.path = issue.path;
  if (lineStart !== undefined) {
    finding.lines = { start: lineStart, end: num(issue.line_end) ?? lineStart, columnStart: num(issue.column_start), columnEnd: num(issue.column_end) };
  }
  return finding;
}

export function toFindings(issues: FlowValidationIssue[] | null | undefined): Finding[] {
  return (issues ?? []).map(toFinding);
}

/** `issues` of a 400 invalid_request on save, keyed like "draft.screens.0.title", as findings with pointers. */
export function requestFindings(issues: Record<string, string[]> | undefined, root: "draft" | "flow_json"): Finding[] {
  if (!issues) return [];
  return Object.entries(issues).flatMap(([key, messages]) => {
    const segments = key.split(".");
    const path = segments[0] === root ? `/${segments.slice(1).map(escapeSegment).join("/")}` : undefined;
    return messages.map((message) => ({ source: "request" as const, code: "INVALID_REQUEST", message, ...(path !== undefined ? { path } : {}) }));
  });
}

/** Only our own findings (and a refused save) stop a publish; the provider's errors describe the last attempt. */
export const blocksPublish = (finding: Finding) => finding.source !== "provider";

export function parsePointer(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return [];
  return pointer
    .replace(/^\//, "")
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Where in the builder a finding belongs: the entry screen select, a screen, a field or an option; `prop` is the key it names. */
export type Anchor =
  | { at: "entry" }
  | { at: "screen"; screenUid: string; prop?: string }
  | { at: "field"; screenUid: string; fieldUid: string; prop?: string }
  | { at: "option"; screenUid: string; fieldUid: string; index: number; prop?: string };

const index = (segment: string | undefined) => (segment !== undefined && /^\d+$/.test(segment) ? Number(segment) : undefined);

/**
 * The builder element a draft pointer names, through the uids the saved draft had at each index.
 * A pointer into a compiled screen (`/screens/1/layout/...`) lands on that screen. Null: the flow as
 * a whole (e.g. "/screens" for too many screens), or an element deleted since the save.
 */
export function anchorOf(pointer: string, shape: SavedShape): Anchor | null {
  const [head, screenAt, key, fieldAt, sub, optionAt, optionKey] = parsePointer(pointer);
  if (head === "entryScreenId") return { at: "entry" };
  const screenIndex = index(screenAt);
  const screen = head === "screens" && screenIndex !== undefined ? shape.screens[screenIndex] : undefined;
  if (!screen) return null;
  const fieldIndex = key === "fields" ? index(fieldAt) : undefined;
  const fieldUid = fieldIndex !== undefined ? screen.fields[fieldIndex] : undefined;
  if (!fieldUid) return { at: "screen", screenUid: screen.uid, prop: key };
  const optionIndex = sub === "options" ? index(optionAt) : undefined;
  if (optionIndex !== undefined) return { at: "option", screenUid: screen.uid, fieldUid, index: optionIndex, prop: optionKey };
  return { at: "field", screenUid: screen.uid, fieldUid, prop: sub };
}

export interface PlacedFindings {
  entry: Finding[];
  screens: Map<string, Finding[]>;
  fields: Map<string, Finding[]>;
  /** Keyed `${fieldUid}/${index}`. */
  options: Map<string, Finding[]>;
  /** About the flow as a whole, or about something no longer in the builder. */
  general: Finding[];
  /** The key each placed finding names (for marking the very input): element key → props. */
  props: Map<string, Set<string>>;
}

const push = <K>(map: Map<K, Finding[]>, key: K, finding: Finding) => map.set(key, [...(map.get(key) ?? []), finding]);

function elementKey(anchor: Anchor): string {
  if (anchor.at === "entry") return "entry";
  if (anchor.at === "screen") return anchor.screenUid;
  if (anchor.at === "field") return anchor.fieldUid;
  return `${anchor.fieldUid}/${anchor.index}`;
}

/** Every finding next to the element it points at (provider errors, which carry lines, go to the general list). */
export function placeFindings(findings: Finding[], shape: SavedShape): PlacedFindings {
  const placed: PlacedFindings = { entry: [], screens: new Map(), fields: new Map(), options: new Map(), general: [], props: new Map() };
  for (const finding of findings) {
    const anchor = finding.path !== undefined ? anchorOf(finding.path, shape) : null;
    if (!anchor) placed.general.push(finding);
    else if (anchor.at === "entry") placed.entry.push(finding);
    else if (anchor.at === "screen") push(placed.screens, anchor.screenUid, finding);
    else if (anchor.at === "field") push(placed.fields, anchor.fieldUid, finding);
    else push(placed.options, `${anchor.fieldUid}/${anchor.index}`, finding);
    if (anchor && anchor.at !== "entry" && anchor.prop) {
      const key = elementKey(anchor);
      placed.props.set(key, new Set([...(placed.props.get(key) ?? []), anchor.prop]));
    }
  }
  return placed;
}

function mergeMaps(a: Map<string, Finding[]>, b: Map<string, Finding[]>): Map<string, Finding[]> {
  const merged = new Map(a);
  for (const [key, list] of b) merged.set(key, [...(merged.get(key) ?? []), ...list]);
  return merged;
}

/** Two placements in one (the saved flow's findings and a refused save's, each placed through its own shape). */
export function mergePlaced(a: PlacedFindings, b: PlacedFindings): PlacedFindings {
  const props = new Map(a.props);
  for (const [key, set] of b.props) props.set(key, new Set([...(props.get(key) ?? []), ...set]));
  return {
    entry: [...a.entry, ...b.entry],
    screens: mergeMaps(a.screens, b.screens),
    fields: mergeMaps(a.fields, b.fields),
    options: mergeMaps(a.options, b.options),
    general: [...a.general, ...b.general],
    props,
  };
}

/** The id of the builder element a finding points at (ScreenCard, FieldCard, the entry select), for "Show". */
export function builderElementId(finding: Finding, shape: SavedShape): string | null {
  if (finding.path === undefined) return null;
  const anchor = anchorOf(finding.path, shape);
  if (!anchor) return null;
  if (anchor.at === "entry") return "flow-entry-screen";
  if (anchor.at === "screen") return `flow-screen-${anchor.screenUid}`;
  return `flow-field-${anchor.fieldUid}`;
}
