import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { phoneDigits, type ContactRow } from "./identity";

/** What erase reports, in the order of docs/spec/decisions.md "Contact erasure". */
const ERASED_DATA_TYPES = ["profile", "messages", "notes", "media", "opt_ins", "flow_submissions", "registration_intents", "webhook_payloads"] as const;
export type ErasedDataType = (typeof ERASED_DATA_TYPES)[number];

/**
 * The contact being erased, and the strings that identify it inside free-form stored text (event
 * payloads, raw provider envelopes, idempotency replays): its id, its phone digits (which also match
 * "+<digits>") and its platform user id.
 */
export interface ErasureTarget {
  projectId: string;
  organizationId: string;
  contactId: string;
  /** The channel the project's contact is on now (its messages may name others). */
  channelId: string;
  digits: string | null;
  userId: string | null;
  markers: string[];
}

export function erasureTarget(contact: ContactRow): ErasureTarget {
  const digits = contact.phone ? phoneDigits(contact.phone) : null;
  const markers = [contact.id, digits, contact.userId].filter((m): m is string => Boolean(m && m.length >= 6));
  return {
    projectId: contact.projectId,
    organizationId: contact.organizationId,
    contactId: contact.id,
    channelId: contact.channelId,
    digits,
    userId: contact.userId,
    markers,
  };
}

/**
 * True when the column's text mentions any of the markers. strpos, not LIKE: ids contain `_`, a LIKE
 * wildcard. A false positive only redacts one more row of this project, never another project's.
 */
export function mentionsAny(column: AnyPgColumn | SQL, markers: string[]): SQL {
  if (!markers.length) return sql`false`;
  const any = sql.join(
    markers.map((m) => sql`strpos(${column}::text, ${m}) > 0`),
    sql` or `,
  );
  return sql`(${any})`;
}

/** The types that had data, in the contract's order. */
export function orderedTypes(found: Set<ErasedDataType>): ErasedDataType[] {
  return ERASED_DATA_TYPES.filter((t) => found.has(t));
}
