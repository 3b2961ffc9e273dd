import { keywordMatches, normalizeText } from "@/lib/domain/automations/match";

/**
 * The offline agent's FAQ lookup (docs/spec/decisions.md "Business agents": "else the best keyword
 * match in knowledge.faq [{q, a}]"), pure. Text is normalised and matched word by word exactly as
 * automations' CONTAINS_WORD keywords are (lib/domain/automations/match.ts).
 *
 * "Best" (docs/api-decisions.md "Business agents"): the entry whose question shares the most content
 * words with the customer's text; ties go to the earlier entry. Content words are the question's
 * words minus a short list of function words and greetings, so "hi, how are you?" shares nothing
 * with "How do I reset my password?". An entry matches only when at least half of its content words
 * (rounded up, at least one) appear in the text: one word in common with a long question is chance.
 */
export interface FaqEntry {
  q: string;
  a: string;
}

export interface FaqMatch {
  entry: FaqEntry;
  index: number;
  /** The question's content words found in the text. */
  shared: string[];
  /** How many the question has (the minimum overlap is half of it). */
  of: number;
}

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if of to in on at by for from with about as into is are am was were be been being do does did doing have has had " +
    "i me my mine you your yours we us our it its they them their he she his her this that these those there here what when where who whom " +
    "which why how can could would should will shall may might must not no yes please thanks thank ok okay " +
    "hi hello hey hola ola good morning afternoon evening day"
  ).split(" "),
);

/** The entries of settings.knowledge.faq that have a question and an answer; anything else is ignored. */
export function faqEntries(settings: Record<string, unknown>): FaqEntry[] {
  const knowledge = settings.knowledge;
  if (!knowledge || typeof knowledge !== "object") return [];
  const faq = (knowledge as { faq?: unknown }).faq;
  if (!Array.isArray(faq)) return [];
  return faq.filter(
    (entry): entry is FaqEntry =>
      !!entry && typeof entry === "object" && typeof (entry as FaqEntry).q === "string" && typeof (entry as FaqEntry).a === "string",
  );
}

/**
 * A question's content words, once each. The split is the word boundary of match.ts (letters and
 * digits); each word is then matched against the text with match.ts's own keywordMatches.
 */
export function contentWords(question: string): string[] {
  const words = normalizeText(question)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && !STOP_WORDS.has(word));
  return [...new Set(words)];
}

export function minimumOverlap(contentWordCount: number): number {
  return Math.max(1, Math.ceil(contentWordCount / 2));
}

/** The best entry for `text`, or null when none reaches its minimum overlap. */
export function bestFaq(entries: readonly FaqEntry[], text: string): FaqMatch | null {
  let best: FaqMatch | null = null;
  entries.forEach((entry, index) => {
    const words = contentWords(entry.q);
    if (words.length === 0 || !entry.a.trim()) return;
    const shared = words.filter((word) => keywordMatches(word, text, "CONTAINS_WORD"));
    if (shared.length < minimumOverlap(words.length)) return;
    if (!best || shared.length > best.shared.length) best = { entry, index, shared, of: words.length };
  });
  return best;
}
