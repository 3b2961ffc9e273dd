import { child, pointer } from "./pointer";
import type { FlowJson } from "./types";

/**
 * Defensive readers for a Flow JSON: a given flow_json is stored as is, so every step checks its shape and
 * the walkers skip what is not there (validateFlowJson reports it).
 */

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ScreenAt {
  screen: Json;
  index: number;
  path: string;
  /** The screen's id when it is a string, else null. */
  id: string | null;
}

export function screensOf(json: FlowJson): ScreenAt[] {
  const screens = json.screens;
  if (!Array.isArray(screens)) return [];
  return screens.flatMap((screen, index) =>
    isRecord(screen) ? [{ screen, index, path: pointer("screens", index), id: typeof screen.id === "string" ? screen.id : null }] : [],
  );
}

export interface ComponentAt {
  component: Json;
  type: string;
  path: string;
}

/**
 * Every component of a screen, depth first in document order: the layout's children, a Form's children,
 * an If's `then`/`else` branches and a Switch's `cases`. Elements that are not components (no string
 * `type`) go to `onMalformed`.
 */
export function componentsOf(screen: ScreenAt, onMalformed?: (path: string) => void): ComponentAt[] {
  const layout = screen.screen.layout;
  if (!isRecord(layout)) return [];
  const found: ComponentAt[] = [];
  walk(layout.children, child(screen.path, "layout", "children"), found, onMalformed);
  return found;
}

function walk(children: unknown, path: string, found: ComponentAt[], onMalformed?: (path: string) => void): void {
  if (!Array.isArray(children)) return;
  children.forEach((component, index) => {
    const at = child(path, index);
    if (!isRecord(component) || typeof component.type !== "string") {
      onMalformed?.(at);
      return;
    }
    found.push({ component, type: component.type, path: at });
    for (const key of ["children", "then", "else"]) walk(component[key], child(at, key), found, onMalformed);
    if (isRecord(component.cases)) {
      for (const [name, branch] of Object.entries(component.cases)) walk(branch, child(at, "cases", name), found, onMalformed);
    }
  });
}

/** A component's actions, with their pointers: click/select actions and a NavigationList's item actions. */
export interface ActionAt {
  action: Json;
  path: string;
  component: ComponentAt;
}

const ACTION_KEYS = ["on-click-action", "on-select-action", "on-unselect-action"];

function actionsOf(components: ComponentAt[]): ActionAt[] {
  const found: ActionAt[] = [];
  for (const component of components) {
    for (const key of ACTION_KEYS) {
      const action = component.component[key];
      if (isRecord(action)) found.push({ action, path: child(component.path, key), component });
    }
    const items = component.component["list-items"];
    if (!Array.isArray(items)) continue;
    items.forEach((item, index) => {
      if (isRecord(item) && isRecord(item["on-click-action"])) {
        found.push({ action: item["on-click-action"], path: child(component.path, "list-items", index, "on-click-action"), component });
      }
    });
  }
  return found;
}

/** The target screen name of a navigate action, when it has one. */
export function navigateTarget(action: Json): string | null {
  const next = action.next;
  return isRecord(next) && typeof next.name === "string" ? next.name : null;
}

/** `${form.x}` / `${data.x}` → {source, name}; anything else → null. */
export function dynamicRef(value: unknown): { source: "form" | "data"; name: string } | null {
  if (typeof value !== "string") return null;
  const match = /^\$\{(form|data)\.([A-Za-z0-9_]+)\}$/.exec(value);
  return match ? { source: match[1] as "form" | "data", name: match[2]! } : null;
}

/** A text that is bound to data (`${data.x}`) has no length we can judge. */
export function isDynamicText(value: unknown): boolean {
  return typeof value === "string" && value.startsWith("${");
}

/** Input components: they carry a `name` the form and submission use. */
export const INPUT_COMPONENTS: ReadonlySet<string> = new Set([
  "TextInput",
  "TextArea",
  "DatePicker",
  "CalendarPicker",
  "Dropdown",
  "RadioButtonsGroup",
  "CheckboxGroup",
  "ChipsSelector",
  "OptIn",
  "PhotoPicker",
  "DocumentPicker",
]);

/** A screen with its components and actions read once. */
export interface ScreenView extends ScreenAt {
  components: ComponentAt[];
  actions: ActionAt[];
  /** Keys the screen declares in `data`. */
  dataKeys: string[];
  /** It has a layout with a children array (checks that read components skip the screens without). */
  laidOut: boolean;
}

export interface FlowView {
  screens: ScreenView[];
  /** Screens by id (the first one, when an id repeats). */
  byId: Map<string, ScreenView>;
  /** The flow talks to an endpoint: it names a data_api_version. */
  endpoint: boolean;
}

export function viewOf(json: FlowJson, onMalformed?: (path: string) => void): FlowView {
  const screens = screensOf(json).map((at) => {
    const components = componentsOf(at, onMalformed);
    const laidOut = isRecord(at.screen.layout) && Array.isArray(at.screen.layout.children);
    return { ...at, components, actions: actionsOf(components), dataKeys: isRecord(at.screen.data) ? Object.keys(at.screen.data) : [], laidOut };
  });
  const byId = new Map<string, ScreenView>();
  for (const screen of screens) if (screen.id !== null && !byId.has(screen.id)) byId.set(screen.id, screen);
  return { screens, byId, endpoint: json.data_api_version !== undefined };
}
