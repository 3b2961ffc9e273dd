import { randomFillSync } from "node:crypto";
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
  automation: "auto",
  automationRun: "arun",
  function: "fn",
  functionVersion: "ver",
  functionInvocation: "fninv",
  businessAgent: "ba",
  businessAgentConnector: "bacn",
  businessAgentTool: "batl",
  threadControl: "thc",
  note: "note",
  savedReply: "srep",
  broadcast: "bc",
  broadcastRecipient: "bcr",
  registrationIntent: "ri",
  deviceCode: "dc",
  auditEvent: "aud",
  request: "req",
  idempotencyKey: "idem",
  inboundWebhook: "iw",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * ulid's own PRNG asks the OS for one byte per character (16 calls per id), which showed in the send
 * path's profile (README "Performance"). The same cryptographic bytes are drawn from a pool refilled
 * 4 KiB at a time.
 */
const pool = Buffer.alloc(4096);
let poolIndex = pool.length;
function pooledRandom(): number {
  if (poolIndex === pool.length) {
    randomFillSync(pool);
    poolIndex = 0;
  }
  // A byte / 256 is in [0, 1); ulid takes floor(x * 32), i.e. the byte's top five bits: uniform.
  return pool[poolIndex++]! / 256;
}

/**
 * Ids made in one process sort in the order they were made, even within a millisecond or across a
 * step back of the clock: ulid's monotonic factory keeps the last time it used and counts up from it.
 */
let nextUlid = monotonicFactory(pooledRandom);

/**
 * Starts a new sequence, as a new process does. Test files share a worker process (vitest.config.ts),
 * and one that set its clock ahead would otherwise leave every later file's ids in its future
 * (tests/support/file-isolation.ts calls this before each file).
 */
export function restartIdSequence(): void {
  nextUlid = monotonicFactory(pooledRandom);
}

export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${nextUlid(now).toLowerCase()}`;
}

/** True when `value` looks like an id of `kind` (prefix and ulid body); says nothing about existence. */
export function isIdOf(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-hjkmnp-tv-z]{26}$`).test(value);
}
