/**
 * Reads the provider's Flow JSON defensively (a given flow_json is stored as is, so anything may be
 * missing or mistyped) into the few shapes the phone view draws. Values that may hold `${...}`
 * references stay raw here; the view resolves them against the screen's data and form.
 */

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj | null => (value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : null);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

export type TextVariant = "heading" | "subheading" | "body" | "caption";
type ActionName = "navigate" | "complete" | "data_exchange";

/** An on-click-action: which one, the next screen for navigate, and the raw payload. */
export interface RawAction {
  name: ActionName | string;
  next?: string;
  payload: unknown;
}

interface Base {
  /** `visible` as written (a boolean or a `${...}` reference); absent: visible. */
  visible: unknown;
}

export type FlowComponent = Base &
  (
    | { kind: "text"; variant: TextVariant; text: unknown }
    | {
        kind: "input";
        control: "text" | "textarea" | "date";
        name: string;
        label: unknown;
        required: unknown;
        helper: unknown;
        inputType: string;
        minChars?: number;
        maxChars?: number;
        initValue: unknown;
      }
    | {
        kind: "choice";
        control: "dropdown" | "radio" | "checkbox";
        name: string;
        label: unknown;
        required: unknown;
        description: unknown;
        options: unknown;
        minSelected?: number;
        maxSelected?: number;
        initValue: unknown;
      }
    | { kind: "optin"; name: string; label: unknown; required: unknown; initValue: unknown }
    | { kind: "footer"; label: unknown; enabled: unknown; action: RawAction | null; captions: { left: unknown; center: unknown; right: unknown } }
    | { kind: "link"; text: unknown; action: RawAction | null }
    | { kind: "image"; src: unknown; alt: unknown }
    | { kind: "unknown"; type: string }
  );

export interface FlowScreen {
  id: string;
  title: string;
  terminal: boolean;
  /** The screen's declared data (`{"x": {"type": ..., "__example__": ...}}`). */
  declaredData: unknown;
  components: FlowComponent[];
}

const TEXT_TYPES: Record<string, TextVariant> = {
  TextHeading: "heading",
  TextSubheading: "subheading",
  TextBody: "body",
  TextCaption: "caption",
  RichText: "body",
};
const CHOICE_TYPES: Record<string, "dropdown" | "radio" | "checkbox"> = { Dropdown: "dropdown", RadioButtonsGroup: "radio", CheckboxGroup: "checkbox" };

function readAction(value: unknown): RawAction | null {
  const action = obj(value);
  const name = str(action?.name);
  if (!action || !name) return null;
  const next = obj(action.next);
  return { name, next: str(next?.name) ?? str(action.next), payload: action.payload };
}

function readComponent(raw: Obj, initValues: Obj): FlowComponent {
  const type = str(raw.type) ?? "";
  const visible = raw.visible;
  const name = str(raw.name) ?? "";
  const initValue = raw["init-value"] ?? initValues[name];
  const variant = TEXT_TYPES[type];
  if (variant) return { kind: "text", variant, visible, text: raw.text };
  if (type === "TextInput" || type === "TextArea" || type === "DatePicker" || type === "CalendarPicker") {
    const control = type === "TextInput" ? "text" : type === "TextArea" ? "textarea" : "date";
    const maxChars = num(raw["max-chars"]) ?? num(raw["max-length"]);
    return {
      kind: "input",
      control,
      visible,
      name,
      label: raw.label,
      required: raw.required,
      helper: raw["helper-text"],
      inputType: str(raw["input-type"]) ?? "text",
      minChars: num(raw["min-chars"]),
      maxChars,
      initValue,
    };
  }
  const choice = CHOICE_TYPES[type];
  if (choice) {
    const minSelected = num(raw["min-selected-items"]);
    const maxSelected = num(raw["max-selected-items"]);
    return {
      kind: "choice",
      control: choice,
      visible,
      name,
      label: raw.label,
      required: raw.required,
      description: raw.description,
      options: raw["data-source"],
      minSelected,
      maxSelected,
      initValue,
    };
  }
  if (type === "OptIn") return { kind: "optin", visible, name, label: raw.label, required: raw.required, initValue };
  if (type === "Footer") {
    return {
      kind: "footer",
      visible,
      label: raw.label,
      enabled: raw.enabled,
      action: readAction(raw["on-click-action"]),
      captions: { left: raw["left-caption"], center: raw["center-caption"], right: raw["right-caption"] },
    };
  }
  if (type === "EmbeddedLink") return { kind: "link", visible, text: raw.text, action: readAction(raw["on-click-action"]) };
  if (type === "Image") return { kind: "image", visible, src: raw.src, alt: raw["alt-text"] };
  return { kind: "unknown", visible, type: type || "(no type)" };
}

/** A layout's children with Form containers opened up (their children sit in the screen's one form here). */
function flatten(children: unknown, initValues: Obj, out: FlowComponent[]): FlowComponent[] {
  if (!Array.isArray(children)) return out;
  for (const child of children) {
    const raw = obj(child);
    if (!raw) continue;
    if (raw.type === "Form") flatten(raw.children, { ...initValues, ...(obj(raw["init-values"]) ?? {}) }, out);
    else out.push(readComponent(raw, initValues));
  }
  return out;
}

/** The screens of a Flow JSON, in order; entries without an id are skipped. */
export function screensOf(flowJson: unknown): Obj[] {
  const screens = obj(flowJson)?.screens;
  return Array.isArray(screens) ? screens.map(obj).filter((screen): screen is Obj => screen !== null && typeof screen.id === "string") : [];
}

/** One screen by id, or null when the Flow JSON has none by that id. */
export function readScreen(flowJson: unknown, screenId: string): FlowScreen | null {
  const raw = screensOf(flowJson).find((screen) => screen.id === screenId);
  if (!raw) return null;
  const layout = obj(raw.layout);
  return {
    id: screenId,
    title: str(raw.title) ?? screenId,
    terminal: raw.terminal === true,
    declaredData: raw.data,
    components: flatten(layout?.children, {}, []),
  };
}

/** Data-source entries: `{id, title, description?, enabled?}`; anything else is skipped. */
export function readOptions(value: unknown): Array<{ id: string; title: string; description?: string; enabled: boolean }> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const option = obj(item);
    const id = str(option?.id);
    if (!option || !id) return [];
    return [{ id, title: str(option.title) ?? id, description: str(option.description), enabled: option.enabled !== false }];
  });
}
