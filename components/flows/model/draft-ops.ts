import type { FlowDraftFieldType, FlowDraftOption } from "@/lib/client/flows";
import { FIELD_TYPE_LABELS, hasHelperText, hasMaxLength, hasMinLength, hasOptions } from "./field-types";
import { newUid, type ScreenRef, type WorkingDraft, type WorkingField, type WorkingScreen } from "./working-draft";

/**
 * The builder's edits, as pure functions from one working draft to the next (the editor keeps them in
 * React state; tests call them directly). New names follow the draft's rules (screen ids: letters and
 * underscores; field names unique across the flow) so an added element never creates a finding.
 */

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** NEW_SCREEN, NEW_SCREEN_A, NEW_SCREEN_B, …: screen ids may not contain digits. */
function freeScreenId(draft: WorkingDraft): string {
  const taken = new Set(draft.screens.map((screen) => screen.id.toUpperCase()));
  if (!taken.has("NEW_SCREEN")) return "NEW_SCREEN";
  for (let n = 1; ; n++) {
    let suffix = "";
    for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) suffix = LETTERS[(k - 1) % 26] + suffix;
    const id = `NEW_SCREEN_${suffix}`;
    if (!taken.has(id)) return id;
  }
}

function freeFieldName(draft: WorkingDraft, type: FlowDraftFieldType): string {
  const taken = new Set(draft.screens.flatMap((screen) => screen.fields.map((field) => field.name)));
  for (let n = 1; ; n++) if (!taken.has(`${type}_${n}`)) return `${type}_${n}`;
}

function move<T>(items: T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || target < 0 || target >= items.length) return items;
  const copy = [...items];
  const [item] = copy.splice(index, 1);
  copy.splice(target, 0, item!);
  return copy;
}

const mapScreen = (draft: WorkingDraft, uid: string, change: (screen: WorkingScreen) => WorkingScreen): WorkingDraft => ({
  ...draft,
  screens: draft.screens.map((screen) => (screen.uid === uid ? change(screen) : screen)),
});

const mapField = (draft: WorkingDraft, uid: string, change: (field: WorkingField) => WorkingField): WorkingDraft => ({
  ...draft,
  screens: draft.screens.map((screen) =>
    screen.fields.some((field) => field.uid === uid)
      ? { ...screen, fields: screen.fields.map((field) => (field.uid === uid ? change(field) : field)) }
      : screen,
  ),
});

/**
 * A new screen at the end. When the last screen ended the flow, it now continues to the new one (which
 * ends it instead), so an added screen is reachable from the start. Give the uid when the edit runs
 * inside a state updater (React may run it twice).
 */
export function addScreen(draft: WorkingDraft, uid = newUid("s")): { draft: WorkingDraft; uid: string } {
  const screen: WorkingScreen = { uid, id: freeScreenId(draft), title: "New screen", body: "", submit_label: "", next: null, fields: [] };
  const last = draft.screens.at(-1);
  const screens = draft.screens.map((s) => (s === last && s.next === null ? { ...s, next: { kind: "screen" as const, uid } } : s));
  return { draft: { ...draft, screens: [...screens, screen], entry: draft.entry ?? { kind: "screen", uid } }, uid };
}

/** Removes a screen; arrows into it are dropped (those screens complete the flow) and the entry moves to the first screen left. */
export function removeScreen(draft: WorkingDraft, uid: string): WorkingDraft {
  const screens = draft.screens.filter((screen) => screen.uid !== uid);
  const pointsHere = (ref: ScreenRef) => ref?.kind === "screen" && ref.uid === uid;
  const first: ScreenRef = screens[0] ? { kind: "screen", uid: screens[0].uid } : null;
  return {
    entry: pointsHere(draft.entry) ? first : draft.entry,
    screens: screens.map((screen) => (pointsHere(screen.next) ? { ...screen, next: null } : screen)),
  };
}

export function moveScreen(draft: WorkingDraft, uid: string, delta: -1 | 1): WorkingDraft {
  return {
    ...draft,
    screens: move(
      draft.screens,
      draft.screens.findIndex((screen) => screen.uid === uid),
      delta,
    ),
  };
}

export type ScreenPatch = Partial<Pick<WorkingScreen, "id" | "title" | "body" | "submit_label" | "next">>;

export function updateScreen(draft: WorkingDraft, uid: string, patch: ScreenPatch): WorkingDraft {
  return mapScreen(draft, uid, (screen) => ({ ...screen, ...patch }));
}

export function setEntry(draft: WorkingDraft, uid: string): WorkingDraft {
  return { ...draft, entry: { kind: "screen", uid } };
}

const defaultOptions = (): FlowDraftOption[] => [
  { id: "option_1", title: "Option 1" },
  { id: "option_2", title: "Option 2" },
];

export function addField(draft: WorkingDraft, screenUid: string, type: FlowDraftFieldType, uid = newUid("f")): { draft: WorkingDraft; uid: string } {
  const field: WorkingField = { uid, name: freeFieldName(draft, type), type, label: FIELD_TYPE_LABELS[type] };
  if (hasOptions(type)) field.options = defaultOptions();
  return { draft: mapScreen(draft, screenUid, (screen) => ({ ...screen, fields: [...screen.fields, field] })), uid };
}

export function removeField(draft: WorkingDraft, uid: string): WorkingDraft {
  return { ...draft, screens: draft.screens.map((screen) => ({ ...screen, fields: screen.fields.filter((field) => field.uid !== uid) })) };
}

export function moveField(draft: WorkingDraft, uid: string, delta: -1 | 1): WorkingDraft {
  return {
    ...draft,
    screens: draft.screens.map((screen) => {
      const index = screen.fields.findIndex((field) => field.uid === uid);
      return index < 0 ? screen : { ...screen, fields: move(screen.fields, index, delta) };
    }),
  };
}

export type FieldPatch = Partial<Omit<WorkingField, "uid" | "type">>;

export function updateField(draft: WorkingDraft, uid: string, patch: FieldPatch): WorkingDraft {
  return mapField(draft, uid, (field) => {
    const next = { ...field, ...patch };
    // An emptied optional number or text is absent, not 0 or "".
    for (const key of ["min_length", "max_length", "helper_text"] as const) if (key in patch && patch[key] === undefined) delete next[key];
    return next;
  });
}

/** A new type keeps what still applies (field-types.ts): options only for choices (two defaults if it had none), helper text and lengths where the type shows them. */
export function changeFieldType(draft: WorkingDraft, uid: string, type: FlowDraftFieldType): WorkingDraft {
  return mapField(draft, uid, (field) => {
    const next: WorkingField = { ...field, type };
    if (hasOptions(type)) next.options = field.options?.length ? field.options : defaultOptions();
    else delete next.options;
    if (!hasHelperText(type)) delete next.helper_text;
    if (!hasMinLength(type)) delete next.min_length;
    if (!hasMaxLength(type)) delete next.max_length;
    return next;
  });
}

export function addOption(draft: WorkingDraft, fieldUid: string): WorkingDraft {
  return mapField(draft, fieldUid, (field) => {
    const options = field.options ?? [];
    const taken = new Set(options.map((option) => option.id));
    let n = options.length + 1;
    while (taken.has(`option_${n}`)) n++;
    return { ...field, options: [...options, { id: `option_${n}`, title: `Option ${n}` }] };
  });
}

export function updateOption(draft: WorkingDraft, fieldUid: string, index: number, patch: Partial<FlowDraftOption>): WorkingDraft {
  return mapField(draft, fieldUid, (field) => ({
    ...field,
    options: (field.options ?? []).map((option, i) => (i === index ? { ...option, ...patch } : option)),
  }));
}

export function removeOption(draft: WorkingDraft, fieldUid: string, index: number): WorkingDraft {
  return mapField(draft, fieldUid, (field) => ({ ...field, options: (field.options ?? []).filter((_, i) => i !== index) }));
}
