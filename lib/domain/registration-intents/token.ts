import { randomBase62 } from "@/lib/crypto/secrets";
import { invalidRequest } from "@/lib/errors";

/** docs/spec/decisions.md "Registration intents": `svcreg_` + 22 base62 characters. */
const TOKEN_PREFIX = "svcreg_";
const TOKEN_BODY_LENGTH = 22;
/** The limit of the whole prefilled text (the token included). */
const PREFILLED_MAX = 140;
const DEFAULT_TEXT = "Hi! Please register me. Ref:";
/** Case-insensitive and unanchored: customers edit the prefilled text, and keyboards change case. */
const TOKEN_IN_TEXT = /svcreg_[0-9a-z]{22}/i;

export function generateToken(): string {
  return TOKEN_PREFIX + randomBase62(TOKEN_BODY_LENGTH);
}

/** The first token-shaped word in a message, if any: the only inbound text that costs a lookup. */
export function tokenIn(text: string | null | undefined): string | null {
  if (!text || text.length < TOKEN_PREFIX.length + TOKEN_BODY_LENGTH) return null;
  const match = TOKEN_IN_TEXT.exec(text);
  return match ? match[0] : null;
}

/**
 * The text the link prefills: the caller's text (or ours) with the token appended, so the token is
 * always there and always intact. A result over 140 characters is refused rather than cut: cutting
 * could drop the very word the customer was asked to send.
 */
export function prefilledText(callerText: string | undefined, token: string): string {
  const base = callerText?.trim() ? callerText.trim() : DEFAULT_TEXT;
  // Inbound matching takes the first token-shaped word: the caller's text must not hold one of its own.
  if (tokenIn(base))
    throw invalidRequest("prefilled_message must not contain a registration token: the token is appended for you.", {
      prefilled_message: ["Contains a svcreg_ token."],
    });
  const text = `${base} ${token}`;
  if (text.length > PREFILLED_MAX) {
    const room = PREFILLED_MAX - token.length - 1;
    throw invalidRequest(
      `prefilled_message is too long: the token (${token.length} characters) is appended to it and the whole text must fit ${PREFILLED_MAX}.`,
      {
        prefilled_message: [`At most ${room} characters (the token and a space are appended).`],
      },
    );
  }
  return text;
}

/** https://wa.me/<digits>?text=<encoded>: the number without '+' or punctuation. */
export function waLink(phoneNumber: string, text: string): string {
  return `https://wa.me/${phoneNumber.replace(/\D/g, "")}?text=${encodeURIComponent(text)}`;
}
