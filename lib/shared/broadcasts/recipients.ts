/**
 * A broadcast recipient's rules that need no database (docs/spec/decisions.md "Broadcasts"), shared by
 * the server (lib/domain/broadcasts/recipients.ts answers each refused row with these words) and the
 * dashboard (a CSV or pasted numbers are judged row by row before anything is uploaded): who the row is
 * (exactly one of to and contact_id, a number in international form), whether its parameters fit the
 * template, and how many rows one call takes.
 */
import type { TemplateShape } from "@/lib/shared/templates/types";
import { parametersFault, type RecipientParameters } from "./parameters";

/** Per call of POST /broadcasts/{id}/recipients (and POST /broadcasts), and the longest `to` and `contact_id` the wire schema takes. */
export const RECIPIENT_LIMITS = { perCall: 1000, to: 32, contactId: 200 } as const;

export interface RecipientInput {
  to?: string | undefined;
  contact_id?: string | undefined;
  parameters?: RecipientParameters | undefined;
}

/** Who a row names: a number (its E.164 digits, no "+") or a contact of the project, looked up by the server. */
export type RecipientWho = { to: string } | { contactId: string };

/** What is wrong with a row, and what it is about: its `to`, its `contact_id`, or its `parameters` (these variables, when known). */
export interface RecipientProblem {
  field: "to" | "contact_id" | "parameters";
  variables?: string[];
  message: string;
}

const E164_DIGITS = /^[1-9]\d{7,14}$/;

/**
 * A number as people write it → its E.164 digits: spaces, dashes, dots and brackets go, a leading "+"
 * or "00" (the international prefix dialled in most countries) says the country code follows. Null
 * when it is not a number: letters, or not 8 to 15 digits starting with the country code.
 */
export function recipientNumber(raw: string): string | null {
  const text = raw.trim();
  if (/[a-z]/i.test(text)) return null;
  const digits = text.replace(/\D/g, "");
  const international = !text.startsWith("+") && digits.startsWith("00") ? digits.slice(2) : digits;
  return E164_DIGITS.test(international) ? international : null;
}

function phoneProblem(raw: string): string {
  return `'${raw.trim()}' is not a phone number: write it in international format with its country code, like +14155550123.`;
}

/** Who the row names, or why it names nobody usable. */
export function recipientWho(input: RecipientInput): RecipientWho | RecipientProblem {
  if ((input.to === undefined) === (input.contact_id === undefined)) return { field: "to", message: "Give exactly one of to or contact_id." };
  if (input.contact_id !== undefined) return { contactId: input.contact_id };
  const digits = recipientNumber(input.to!);
  return digits ? { to: digits } : { field: "to", message: phoneProblem(input.to!) };
}

export function isRecipientProblem(value: RecipientWho | RecipientProblem): value is RecipientProblem {
  return "message" in value;
}

/** Whether the row's parameters fit the template, with the variables at fault. */
export function recipientParametersProblem(shape: TemplateShape, parameters: RecipientParameters | null | undefined): RecipientProblem | null {
  const fault = parametersFault(shape, parameters);
  return fault ? { field: "parameters", variables: fault.keys, message: fault.message } : null;
}

/** Everything about a row the server judges without its database, in the server's order: who first, then the parameters. */
export function recipientProblem(input: RecipientInput, shape: TemplateShape): RecipientProblem | null {
  const who = recipientWho(input);
  if (isRecipientProblem(who)) return who;
  return recipientParametersProblem(shape, input.parameters ?? null);
}
