/**
 * The settings form's draft, read from and written back to the agent's `settings`
 * (docs/spec/decisions.md "Business agents"): handoff {keywords, message}, knowledge {faq: [{q, a}]},
 * fallback_message, persona, language. Other keys of handoff and knowledge are kept as they were.
 */
export interface FaqRow {
  q: string;
  a: string;
}

export interface SettingsDraft {
  persona: string;
  language: string;
  handoffKeywords: string[];
  handoffMessage: string;
  fallbackMessage: string;
  faq: FaqRow[];
}

/** The engine's default when settings carry no handoff keywords (lib/domain/agents/engine.ts). */
export const DEFAULT_HANDOFF_KEYWORDS = ["human", "agent", "person"];

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown) => (typeof value === "string" ? value : "");

export function draftFromSettings(settings: Record<string, unknown> | null): SettingsDraft {
  const s = record(settings);
  const handoff = record(s.handoff);
  const faq = Array.isArray(record(s.knowledge).faq) ? (record(s.knowledge).faq as unknown[]) : [];
  return {
    persona: str(s.persona),
    language: str(s.language),
    handoffKeywords: Array.isArray(handoff.keywords) ? handoff.keywords.filter((k): k is string => typeof k === "string") : [...DEFAULT_HANDOFF_KEYWORDS],
    handoffMessage: str(handoff.message),
    fallbackMessage: str(s.fallback_message),
    faq: faq.map((entry) => ({ q: str(record(entry).q), a: str(record(entry).a) })),
  };
}

/** The PUT /business-agents/{id}/settings body: empty texts are sent as "" so a cleared field is cleared. */
export function settingsBody(draft: SettingsDraft, settings: Record<string, unknown> | null): Record<string, unknown> {
  const s = record(settings);
  const handoff: Record<string, unknown> = { ...record(s.handoff), keywords: draft.handoffKeywords };
  if (draft.handoffMessage.trim()) handoff.message = draft.handoffMessage;
  else delete handoff.message;
  return {
    persona: draft.persona,
    language: draft.language,
    handoff,
    fallback_message: draft.fallbackMessage,
    knowledge: { ...record(s.knowledge), faq: draft.faq.filter((row) => row.q.trim() || row.a.trim()) },
  };
}
