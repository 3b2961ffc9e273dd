import type { Automation, AutomationStep, AutomationTrigger, MatchMode, StepKind } from "@/lib/client/automations";

/**
 * The builder's draft of one automation: the config entry's own shape (docs/spec/decisions.md
 * "Automations (routing FLOWS)", lib/domain/automations/definition.ts), plus a stable id per step so
 * moving a step keeps its card (and its focus). `entryOf` turns it into the entry the API and the
 * config document take. It never drops an item of a list, so an issue's path (`steps.2.send_reply.
 * buttons.1.title`) still points at the card and field the operator sees.
 */

interface DraftStep {
  uid: string;
  step: AutomationStep;
}

export interface AutomationDraft {
  key: string;
  name: string;
  active: boolean;
  trigger: AutomationTrigger;
  steps: DraftStep[];
}

export interface AutomationEntry {
  key: string;
  name: string;
  trigger: AutomationTrigger;
  steps: AutomationStep[];
  active: boolean;
}

let uidCounter = 0;
export const newUid = () => `step${++uidCounter}`;

export const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A blank step of each kind: the fields the form shows first, already valid where a default exists. */
export function blankStep(kind: StepKind): AutomationStep {
  switch (kind) {
    case "send_reply":
      return { send_reply: { text: "" } };
    case "delay":
      return { delay: { minutes: 5 } };
    case "wait_reply":
      return { wait_reply: { timeout_hours: 24 } };
    case "pause_replies":
      return { pause_replies: {} };
    case "send_flow":
      return { send_flow: { flow: "" } };
    case "run_function":
      return { run_function: { function: "", result_mode: "reply" } };
  }
}

export function blankDraft(): AutomationDraft {
  return {
    key: "",
    name: "",
    // A new automation is saved off: switching it on is its own, confirmed, step.
    active: false,
    trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: [] },
    steps: [{ uid: newUid(), step: blankStep("send_reply") }],
  };
}

export function draftOf(automation: Pick<Automation, "key" | "name" | "active" | "trigger" | "steps">): AutomationDraft {
  return {
    key: automation.key,
    name: automation.name,
    active: automation.active,
    trigger: structuredClone(automation.trigger),
    steps: automation.steps.map((step) => ({ uid: newUid(), step: structuredClone(step) })),
  };
}

/** "order", "order-copy", "order-copy-2": the first key not taken (and within 64 characters). */
export function copyKey(key: string, taken: ReadonlySet<string>): string {
  const base = `${key.slice(0, 55)}-copy`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A copy to edit and save as a new automation: another key, "(copy)" in its name, off. */
export function duplicateDraft(automation: Pick<Automation, "key" | "name" | "active" | "trigger" | "steps">, takenKeys: ReadonlySet<string>): AutomationDraft {
  const draft = draftOf(automation);
  return { ...draft, key: copyKey(automation.key, takenKeys), name: `${automation.name} (copy)`.slice(0, 256), active: false };
}

/** A key from a name: "Order status" → "order-status" (what the key field offers until it is typed in). */
export function keyFromName(name: string): string {
  const slug = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return slug;
}

/** A button's or an option's id from its title when the operator left it empty: "Track order" → "track_order". */
export function idFromTitle(title: string, index: number): string {
  const id = keyFromName(title).replace(/-/g, "_");
  return id || `option_${index + 1}`;
}

const trimmed = (value: string | undefined) => {
  const text = value?.trim();
  return text ? text : undefined;
};

function cleanTrigger(trigger: AutomationTrigger): AutomationTrigger {
  if (trigger.type !== "KEYWORD") return { type: trigger.type };
  return { type: "KEYWORD", match_mode: trigger.match_mode ?? "CONTAINS_WORD", keywords: trigger.keywords ?? [] };
}

function cleanMatchMode(mode: MatchMode | undefined): { matchMode?: MatchMode } {
  // EXACT is the option default (decisions.md): left out, as config export leaves defaults out.
  return mode && mode !== "EXACT" ? { matchMode: mode } : {};
}

function cleanStep(step: AutomationStep): AutomationStep {
  if (step.send_reply) {
    const buttons = (step.send_reply.buttons ?? []).map((b, i) => ({ id: b.id.trim() || idFromTitle(b.title, i), title: b.title.trim() }));
    return { send_reply: { text: step.send_reply.text, ...(buttons.length ? { buttons } : {}) } };
  }
  if (step.wait_reply) {
    const options = (step.wait_reply.options ?? []).map((o, i) => ({
      id: o.id.trim() || idFromTitle(o.label, i),
      label: o.label.trim(),
      ...(o.keywords?.length ? { keywords: o.keywords } : {}),
      ...cleanMatchMode(o.matchMode),
    }));
    const hours = step.wait_reply.timeout_hours;
    return { wait_reply: { ...(hours !== undefined ? { timeout_hours: hours } : {}), ...(options.length ? { options } : {}) } };
  }
  if (step.pause_replies) {
    const reason = trimmed(step.pause_replies.reason);
    return { pause_replies: reason ? { reason } : {} };
  }
  if (step.send_flow) {
    const { flow, body_text, flow_cta, header_text, footer_text } = step.send_flow;
    const optional = { body_text: trimmed(body_text), flow_cta: trimmed(flow_cta), header_text: trimmed(header_text), footer_text: trimmed(footer_text) };
    return { send_flow: { flow, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) } };
  }
  if (step.run_function) {
    const { function: fn, result_mode, variable_name, reply_field } = step.run_function;
    const mode = result_mode ?? "side_effect";
    return {
      run_function: {
        function: fn,
        result_mode: mode,
        ...(mode === "variables" && trimmed(variable_name) ? { variable_name: variable_name!.trim() } : {}),
        ...(mode === "reply" && trimmed(reply_field) && reply_field!.trim() !== "text" ? { reply_field: reply_field!.trim() } : {}),
      },
    };
  }
  return structuredClone(step);
}

/** The entry the write endpoints and the config document take: fields of other modes and empty extras left out. */
export function entryOf(draft: AutomationDraft): AutomationEntry {
  return {
    key: draft.key.trim(),
    name: draft.name.trim(),
    trigger: cleanTrigger(draft.trigger),
    steps: draft.steps.map(({ step }) => cleanStep(step)),
    active: draft.active,
  };
}

/** Moves the item at `from` to `to` (both in range), the others keeping their order. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}
