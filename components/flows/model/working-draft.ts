import type { FlowDraft, FlowDraftField, FlowDraftScreen } from "@/lib/client/flows";

/**
 * The draft as the builder edits it. Screens and fields carry a stable `uid` so that reordering and
 * renaming never lose track of them: "next" and the entry screen point at a screen's uid (renaming a
 * screen id keeps every arrow to it), and the server's findings, whose JSON pointers use indexes of
 * the saved draft, are placed through the uids the saved draft had (see SavedShape).
 */

/** A screen reference: a screen of this draft, or an id no screen has (kept, so the finding about it stays visible). */
export type ScreenRef = { kind: "screen"; uid: string } | { kind: "missing"; id: string } | null;

export type WorkingField = FlowDraftField & { uid: string };

export interface WorkingScreen {
  uid: string;
  id: string;
  title: string;
  body: string;
  submit_label: string;
  next: ScreenRef;
  fields: WorkingField[];
}

export interface WorkingDraft {
  entry: ScreenRef;
  screens: WorkingScreen[];
}

/** The uids of the screens and fields at each index of a saved draft: how a finding's pointer finds its element. */
export interface SavedShape {
  screens: Array<{ uid: string; fields: string[] }>;
}

let uidCounter = 0;
export function newUid(prefix: "s" | "f"): string {
  uidCounter += 1;
  return `${prefix}${uidCounter.toString(36)}`;
}

function refTo(id: string | undefined, byId: Map<string, string>): ScreenRef {
  if (id === undefined || id === "") return null;
  const uid = byId.get(id);
  return uid ? { kind: "screen", uid } : { kind: "missing", id };
}

export function fromDraft(draft: FlowDraft): WorkingDraft {
  const screens = draft.screens.map((screen) => ({ screen, uid: newUid("s") }));
  const byId = new Map<string, string>();
  // The first screen with an id wins, as navigation would find it.
  for (const { screen, uid } of screens) if (!byId.has(screen.id)) byId.set(screen.id, uid);
  return {
    entry: refTo(draft.entryScreenId, byId),
    screens: screens.map(({ screen, uid }) => ({
      uid,
      id: screen.id,
      title: screen.title,
      body: screen.body ?? "",
      submit_label: screen.submit_label ?? "",
      next: refTo(screen.next, byId),
      fields: screen.fields.map((field) => ({ ...field, uid: newUid("f") })),
    })),
  };
}

/** The id a reference names today ("" when it names nothing). */
function refId(draft: WorkingDraft, ref: ScreenRef): string {
  if (!ref) return "";
  if (ref.kind === "missing") return ref.id;
  return draft.screens.find((screen) => screen.uid === ref.uid)?.id ?? "";
}

function toField(field: WorkingField): FlowDraftField {
  const out: FlowDraftField = { name: field.name, type: field.type, label: field.label };
  if (field.required) out.required = true;
  if (field.options !== undefined) out.options = field.options.map(({ id, title }) => ({ id, title }));
  if (field.helper_text) out.helper_text = field.helper_text;
  if (field.min_length !== undefined) out.min_length = field.min_length;
  if (field.max_length !== undefined) out.max_length = field.max_length;
  return out;
}

/** The draft to save: ids in place of uids, empty optional texts left out. */
export function toDraft(draft: WorkingDraft): FlowDraft {
  const screens = draft.screens.map((screen): FlowDraftScreen => {
    const out: FlowDraftScreen = { id: screen.id, title: screen.title, fields: screen.fields.map(toField) };
    if (screen.body) out.body = screen.body;
    const next = refId(draft, screen.next);
    if (next) out.next = next;
    if (screen.submit_label) out.submit_label = screen.submit_label;
    return out;
  });
  return { entryScreenId: refId(draft, draft.entry) || (draft.screens[0]?.id ?? ""), screens };
}

export function shapeOf(draft: WorkingDraft): SavedShape {
  return { screens: draft.screens.map((screen) => ({ uid: screen.uid, fields: screen.fields.map((field) => field.uid) })) };
}
