import { childPath, jsonSpans, spanOf } from "@/lib/simulator/flows-json-spans";
import { isRecord } from "@/lib/simulator/http";

/**
 * The provider's Flow JSON checks, a subset close enough that JSON the simulator accepts is JSON the
 * provider accepts: a supported `version`, data_api_version "3.0" when present, 1–100 screens with
 * unique ids of letters and underscores (SUCCESS is reserved), a SingleColumnLayout of at most 50
 * known components, at most one Footer (label ≤ 35) per screen, TextHeading / TextSubheading ≤ 80,
 * TextBody ≤ 4096, TextInput / TextArea labels ≤ 20, actions with known names, navigate targets that
 * exist, complete only on terminal screens, data_exchange only with an endpoint, and at least one
 * terminal screen, each with a Footer. Findings come out in the provider's validation error shape.
 */
const SUPPORTED_FLOW_JSON_VERSIONS: ReadonlySet<string> = new Set(["3.0", "3.1", "4.0", "5.0", "5.1", "6.0", "6.1", "6.2", "6.3", "7.0", "7.1", "7.2", "7.3"]);

const COMPONENTS = new Set([
  "TextHeading",
  "TextSubheading",
  "TextBody",
  "TextCaption",
  "RichText",
  "TextInput",
  "TextArea",
  "CheckboxGroup",
  "RadioButtonsGroup",
  "Dropdown",
  "ChipsSelector",
  "DatePicker",
  "CalendarPicker",
  "OptIn",
  "EmbeddedLink",
  "Footer",
  "Image",
  "ImageCarousel",
  "PhotoPicker",
  "DocumentPicker",
  "NavigationList",
  "Form",
  "If",
  "Switch",
]);

const TEXT_LIMITS: Record<string, [field: string, max: number][]> = {
  TextHeading: [["text", 80]],
  TextSubheading: [["text", 80]],
  TextBody: [["text", 4096]],
  TextInput: [["label", 20]],
  TextArea: [["label", 20]],
  Footer: [["label", 35]],
};

const ACTIONS = new Set(["navigate", "complete", "data_exchange", "update_data", "open_url"]);
const ACTION_KEYS = ["on-click-action", "on-select-action", "on-unselect-action", "on-change-action"];
const MAX_SCREENS = 100;
const MAX_COMPONENTS = 50;
const SCREEN_ID = /^[A-Za-z_]+$/;

export interface FlowJsonFinding {
  error: string;
  message: string;
  /** Pointer path into the Flow JSON ("" = the document). */
  path: string;
}

/** One validation error as the provider reports it (GET /{flow_id}?fields=validation_errors). */
export interface FlowValidationError {
  error: string;
  error_type: "FLOW_JSON_ERROR";
  message: string;
  line_start?: number;
  line_end?: number;
  column_start?: number;
  column_end?: number;
  pointers: ({ path: string } & Partial<Record<"line_start" | "line_end" | "column_start" | "column_end", number>>)[];
}

interface Walk {
  findings: FlowJsonFinding[];
  screenIds: Set<string>;
  hasEndpoint: boolean;
}

function find(walk: Walk, error: string, message: string, path: string): void {
  walk.findings.push({ error, message, path });
}

function checkAction(walk: Walk, action: unknown, path: string, terminal: boolean): void {
  if (!isRecord(action) || typeof action.name !== "string") return find(walk, "MISSING_REQUIRED_PROPERTY", "An action needs a name.", path);
  const name = action.name;
  if (!ACTIONS.has(name)) return find(walk, "INVALID_PROPERTY_VALUE", `Action '${name}' is not supported.`, childPath(path, "name"));
  if (name === "navigate") {
    const next = isRecord(action.next) ? action.next.name : undefined;
    if (typeof next !== "string") return find(walk, "MISSING_REQUIRED_PROPERTY", "A navigate action needs next.name, the screen to open.", path);
    if (!walk.screenIds.has(next))
      find(walk, "INVALID_PROPERTY_VALUE", `Screen '${next}' that navigate opens does not exist.`, childPath(childPath(path, "next"), "name"));
  }
  if (name === "complete" && !terminal) find(walk, "INVALID_PROPERTY_VALUE", "The complete action is only allowed on a terminal screen.", path);
  if (name === "data_exchange" && !walk.hasEndpoint) {
    find(walk, "INVALID_PROPERTY_VALUE", "The data_exchange action needs a Flow with an endpoint (data_api_version).", path);
  }
}

/** Checks one component and anything nested in it; returns how many components it counts for and its Footers. */
function checkComponent(walk: Walk, component: unknown, path: string, terminal: boolean): { count: number; footers: number } {
  if (!isRecord(component) || typeof component.type !== "string") {
    find(walk, "MISSING_REQUIRED_PROPERTY", "A component needs a type.", path);
    return { count: 1, footers: 0 };
  }
  const type = component.type;
  if (!COMPONENTS.has(type)) {
    find(walk, "INVALID_PROPERTY_VALUE", `Component type '${type}' is not supported.`, childPath(path, "type"));
    return { count: 1, footers: 0 };
  }
  for (const [field, max] of TEXT_LIMITS[type] ?? []) {
    const value = component[field];
    if (type === "Footer" && field === "label" && typeof value !== "string") find(walk, "MISSING_REQUIRED_PROPERTY", "A Footer needs a label.", path);
    if (typeof value === "string" && Array.from(value).length > max) {
      find(walk, "INVALID_PROPERTY_VALUE", `${type} ${field} must be at most ${max} characters long.`, childPath(path, field));
    }
  }
  for (const key of ACTION_KEYS) if (component[key] !== undefined) checkAction(walk, component[key], childPath(path, key), terminal);
  if (type === "Footer" && component["on-click-action"] === undefined) find(walk, "MISSING_REQUIRED_PROPERTY", "A Footer needs an on-click-action.", path);
  const total = { count: 1, footers: type === "Footer" ? 1 : 0 };
  const nested: [unknown, string][] = [
    [component.children, childPath(path, "children")],
    [component.then, childPath(path, "then")],
    [component.else, childPath(path, "else")],
  ];
  if (isRecord(component.cases)) for (const [key, list] of Object.entries(component.cases)) nested.push([list, childPath(childPath(path, "cases"), key)]);
  for (const [list, listPath] of nested) {
    if (!Array.isArray(list)) continue;
    list.forEach((child, index) => {
      const inner = checkComponent(walk, child, childPath(listPath, index), terminal);
      total.count += inner.count;
      total.footers += inner.footers;
    });
  }
  return total;
}

function checkScreen(walk: Walk, screen: Record<string, unknown>, path: string): void {
  const terminal = screen.terminal === true;
  const layout = screen.layout;
  if (!isRecord(layout)) return find(walk, "MISSING_REQUIRED_PROPERTY", "A screen needs a layout.", path);
  if (layout.type !== "SingleColumnLayout") {
    find(walk, "INVALID_PROPERTY_VALUE", "The layout type must be SingleColumnLayout.", childPath(childPath(path, "layout"), "type"));
  }
  const childrenPath = childPath(childPath(path, "layout"), "children");
  if (!Array.isArray(layout.children)) return find(walk, "MISSING_REQUIRED_PROPERTY", "A layout needs children.", childPath(path, "layout"));
  let count = 0;
  let footers = 0;
  layout.children.forEach((component, index) => {
    const result = checkComponent(walk, component, childPath(childrenPath, index), terminal);
    count += result.count;
    footers += result.footers;
  });
  if (count > MAX_COMPONENTS) find(walk, "INVALID_PROPERTY_VALUE", `A screen can have at most ${MAX_COMPONENTS} components.`, childrenPath);
  if (footers > 1) find(walk, "INVALID_PROPERTY_VALUE", "A screen can have only one Footer.", childrenPath);
  if (terminal && footers === 0) find(walk, "MISSING_REQUIRED_PROPERTY", "A terminal screen needs a Footer.", childrenPath);
}

function checkScreenIds(walk: Walk, screens: unknown[]): void {
  screens.forEach((screen, index) => {
    const path = childPath("screens", index);
    if (!isRecord(screen)) return find(walk, "INVALID_PROPERTY_VALUE", "A screen must be an object.", path);
    const id = screen.id;
    if (typeof id !== "string") return find(walk, "MISSING_REQUIRED_PROPERTY", "A screen needs an id.", path);
    if (!SCREEN_ID.test(id)) find(walk, "INVALID_PROPERTY_VALUE", `Screen id '${id}' may contain only letters and underscores.`, childPath(path, "id"));
    else if (id.toUpperCase() === "SUCCESS") find(walk, "INVALID_PROPERTY_VALUE", "Screen id 'SUCCESS' is reserved.", childPath(path, "id"));
    if (walk.screenIds.has(id)) find(walk, "INVALID_PROPERTY_VALUE", `Screen id '${id}' is used more than once.`, childPath(path, "id"));
    walk.screenIds.add(id);
  });
}

/** The findings for one Flow JSON document, in document order. */
export function validateFlowJson(json: Record<string, unknown>): FlowJsonFinding[] {
  const walk: Walk = { findings: [], screenIds: new Set(), hasEndpoint: json.data_api_version !== undefined };
  if (typeof json.version !== "string") find(walk, "MISSING_REQUIRED_PROPERTY", "Property 'version' is required.", "");
  else if (!SUPPORTED_FLOW_JSON_VERSIONS.has(json.version))
    find(walk, "INVALID_PROPERTY_VALUE", `Flow JSON version '${json.version}' is not supported.`, "version");
  if (walk.hasEndpoint && json.data_api_version !== "3.0") find(walk, "INVALID_PROPERTY_VALUE", "data_api_version must be '3.0'.", "data_api_version");
  const screens = json.screens;
  if (!Array.isArray(screens) || screens.length === 0) {
    find(walk, "MISSING_REQUIRED_PROPERTY", "A Flow needs at least one screen.", Array.isArray(screens) ? "screens" : "");
    return walk.findings;
  }
  if (screens.length > MAX_SCREENS) find(walk, "INVALID_PROPERTY_VALUE", `A Flow can have at most ${MAX_SCREENS} screens.`, "screens");
  checkScreenIds(walk, screens);
  screens.forEach((screen, index) => {
    if (isRecord(screen)) checkScreen(walk, screen, childPath("screens", index));
  });
  if (!screens.some((screen) => isRecord(screen) && screen.terminal === true)) {
    find(walk, "MISSING_REQUIRED_PROPERTY", "A Flow needs at least one terminal screen.", "screens");
  }
  return walk.findings;
}

/** Findings with their positions in `text` (the Flow JSON as the provider received it). */
export function toValidationErrors(findings: FlowJsonFinding[], text: string): FlowValidationError[] {
  const spans = findings.length > 0 ? jsonSpans(text) : new Map();
  return findings.map((finding) => {
    const span = spanOf(spans, finding.path);
    return { error: finding.error, error_type: "FLOW_JSON_ERROR", message: finding.message, ...span, pointers: [{ ...span, path: finding.path }] };
  });
}
