import type { AutomationTrigger, MatchMode } from "./definition";

/**
 * Keyword matching of native automations (docs/spec/decisions.md "Automations (routing FLOWS)"), pure.
 *
 * Text is compared normalised: trimmed, lower case, diacritics removed (NFD, combining marks dropped),
 * runs of white space collapsed to one space. Punctuation is kept by EXACT and CONTAINS (they compare
 * the normalised strings), and is a word separator for CONTAINS_WORD: a word is a run of letters and
 * digits, so keyword `hola` matches `¡Hola!` and `hola, qué tal`, but not `holanda`. A multi-word
 * keyword matches as a phrase (its words consecutive). A keyword with no letter or digit (an emoji)
 * cannot be a word: CONTAINS_WORD compares it as CONTAINS does.
 */
export function normalizeText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/gu, " ").trim();
}

const WORD = /[\p{L}\p{N}]+/gu;

function wordsOf(normalized: string): string[] {
  return normalized.match(WORD) ?? [];
}

function containsPhrase(words: string[], phrase: string[]): boolean {
  for (let start = 0; start + phrase.length <= words.length; start++) {
    if (phrase.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/** Whether `keyword` matches one candidate text under `mode`. */
export function keywordMatches(keyword: string, text: string, mode: MatchMode): boolean {
  const k = normalizeText(keyword);
  const t = normalizeText(text);
  if (!k) return false;
  if (mode === "EXACT") return t === k;
  const phrase = wordsOf(k);
  if (mode === "CONTAINS" || phrase.length === 0) return t.includes(k);
  return containsPhrase(wordsOf(t), phrase);
}

/** What a customer message offers for matching: its text, and for a button or list reply its title and id. */
export interface MessageFacts {
  type: string;
  text: string | null;
  interactive?: { type?: string | null; id?: string | null; title?: string | null; payload?: string | null } | null;
}

export function matchCandidates(message: MessageFacts): string[] {
  const reply = message.interactive;
  const texts = [message.text, reply?.title, reply?.id, reply?.payload];
  return [...new Set(texts.filter((t): t is string => typeof t === "string" && t.trim().length > 0))];
}

function anyKeywordMatches(keywords: readonly string[], candidates: readonly string[], mode: MatchMode): boolean {
  return keywords.some((keyword) => candidates.some((text) => keywordMatches(keyword, text, mode)));
}

/** A KEYWORD trigger: any of its keywords against any candidate; match_mode defaults to CONTAINS_WORD. */
export function triggerMatches(trigger: AutomationTrigger, candidates: readonly string[]): boolean {
  if (trigger.type !== "KEYWORD") return false;
  return anyKeywordMatches(trigger.keywords ?? [], candidates, trigger.match_mode ?? "CONTAINS_WORD");
}

export interface Candidate {
  id: string;
  trigger: AutomationTrigger;
}

/**
 * Which automation a new customer turn starts (the run a WAITING wait_reply takes comes first and is
 * decided by the caller): the first KEYWORD automation in config order that matches, else WELCOME on
 * the contact's first inbound message, else ANY_MESSAGE. `automations` are the active ones, in order.
 */
export function pickAutomation<T extends Candidate>(automations: readonly T[], candidates: readonly string[], isFirstMessage: boolean): T | null {
  const keyword = automations.find((a) => triggerMatches(a.trigger, candidates));
  if (keyword) return keyword;
  const welcome = automations.find((a) => a.trigger.type === "WELCOME");
  if (welcome && isFirstMessage) return welcome;
  return automations.find((a) => a.trigger.type === "ANY_MESSAGE") ?? null;
}

export interface ReplyOption {
  id: string;
  label: string;
  keywords?: string[] | undefined;
  matchMode?: MatchMode | undefined;
}

/** The first wait_reply option the reply matches: its keywords (matchMode, default EXACT), its label, or its id. */
export function matchOption<T extends ReplyOption>(options: readonly T[], candidates: readonly string[]): T | null {
  return (
    options.find(
      (option) =>
        anyKeywordMatches(option.keywords ?? [], candidates, option.matchMode ?? "EXACT") || anyKeywordMatches([option.label, option.id], candidates, "EXACT"),
    ) ?? null
  );
}
