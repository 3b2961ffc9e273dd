import { monotonicFactory } from "ulid";

/**
 * The one id registry. Ids are `<prefix>_<ulid>` in lower case: opaque to clients, unique, and
 * sortable by creation time, so "newest first" is ORDER BY id DESC and cursors are plain ids.
 */
export const ID_PREFIXES = {
  organization: "org",
  user: "usr",
  membership: "mem",
  invitation: "inv",
  project: "proj",
  apiKey: "key",
  channel: "ch",
  participant: "sp",
  contact: "ct",
  optIn: "opt",
  conversation: "conv",
  message: "msg",
  event: "evt",
  webhookDelivery: "wd",
  webhookAttempt: "wa",
  media: "med",
  flow: "flow",
  flowDispatch: "fd",
  flowSubmission: "fs",
  template: "tmpl",
  function: "fn",
  businessAgent: "ba",
  broadcast: "bc",
  registrationIntent: "ri",
  request: "req",
  idempotencyKey: "idem",
  inboundWebhook: "iw",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const nextUlid = monotonicFactory();

export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${nextUlid(now).toLowerCase()}`;
}

/** True when `value` looks like an id of `kind` (prefix and ulid body); says nothing about existence. */
export function isIdOf(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-hjkmnp-tv-z]{26}$`).test(value);
}
