import { isRecord } from "@/lib/json";
import {
  WINDOW_MS,
  type BusinessMessage,
  type SenderInfo,
  type SimulatorAgent,
  type SimulatorFlow,
  type SimulatorState,
  type SimulatorTemplate,
  type StoredMedia,
} from "@/lib/simulator/state";

/**
 * The part of the simulator's memory that the provider keeps on its side and so survives a restart
 * of our app (persistence.ts writes it): the numbers and business accounts it knows, each customer's
 * open 24-hour window, the business messages customers received (their inboxes, with statuses),
 * uploaded media (metadata here; the bytes in files beside it), flows with their registered
 * encryption keys, message templates, business agents, and the throughput a number was given.
 *
 * Left out, as state of the moment rather than the provider's record: pair pacing (6 s), pricing
 * conversation ids (a new one opens, as after 24 h), throughput windows and counters, test hooks
 * armed for the next call, and webhooks still being retried.
 */
const SNAPSHOT_VERSION = 1;

export type MediaMeta = Omit<StoredMedia, "bytes">;

export interface SimulatorSnapshot {
  version: typeof SNAPSHOT_VERSION;
  saved_at: string;
  senders: [string, SenderInfo][];
  /** Sender id, customer address, when the customer last wrote (ms since the epoch). */
  windows: [string, string, number][];
  sent: BusinessMessage[];
  media: MediaMeta[];
  flows: SimulatorFlow[];
  flow_public_keys: [string, string][];
  templates: SimulatorTemplate[];
  agents: SimulatorAgent[];
  /** Phone number id, messages a second (set through the control route). */
  throughput: [string, number][];
}

export function takeSnapshot(state: SimulatorState, at: Date): SimulatorSnapshot {
  return {
    version: SNAPSHOT_VERSION,
    saved_at: at.toISOString(),
    senders: [...state.senders],
    windows: state.openWindows(at),
    sent: [...state.allSent()],
    media: [...state.allMedia()].map(({ bytes: _bytes, ...meta }) => meta),
    flows: [...state.flows.values()],
    flow_public_keys: [...state.flowPublicKeys],
    templates: [...state.templates.values()],
    agents: [...state.agents.values()],
    throughput: state.throughput.configuredRates(),
  };
}

function arrayOf<T>(value: unknown, name: string, valid: (item: unknown) => boolean): T[] {
  if (!Array.isArray(value)) throw new Error(`${name} is not a list`);
  const bad = value.findIndex((item) => !valid(item));
  if (bad >= 0) throw new Error(`${name}[${bad}] is not valid`);
  return value as T[];
}

const hasId = (item: unknown) => isRecord(item) && typeof item.id === "string";
const pairOf = (first: string, second: string) => (item: unknown) => Array.isArray(item) && typeof item[0] === first && typeof item[1] === second;

/** The snapshot a file held, checked field by field; throws (saying what is wrong) on anything else. */
export function parseSnapshot(raw: unknown): SimulatorSnapshot {
  if (!isRecord(raw)) throw new Error("not a JSON object");
  if (raw.version !== SNAPSHOT_VERSION) throw new Error(`version ${String(raw.version)}, not ${SNAPSHOT_VERSION}`);
  return {
    version: SNAPSHOT_VERSION,
    saved_at: typeof raw.saved_at === "string" ? raw.saved_at : "",
    senders: arrayOf(raw.senders, "senders", (item) => pairOf("string", "object")(item) && isRecord((item as unknown[])[1])),
    windows: arrayOf(
      raw.windows,
      "windows",
      (item) => Array.isArray(item) && typeof item[0] === "string" && typeof item[1] === "string" && Number.isFinite(item[2]),
    ),
    sent: arrayOf(
      raw.sent,
      "sent",
      (item) => hasId(item) && typeof (item as BusinessMessage).sender_id === "string" && typeof (item as BusinessMessage).to === "string",
    ),
    media: arrayOf(raw.media, "media", (item) => hasId(item) && Number.isFinite((item as MediaMeta).file_size)),
    flows: arrayOf(raw.flows, "flows", hasId),
    flow_public_keys: arrayOf(raw.flow_public_keys, "flow_public_keys", pairOf("string", "string")),
    templates: arrayOf(raw.templates, "templates", hasId),
    agents: arrayOf(raw.agents, "agents", hasId),
    throughput: arrayOf(raw.throughput, "throughput", pairOf("string", "number")),
  };
}

/**
 * Fills an empty state from a snapshot. Windows that closed while the simulator was stopped stay
 * closed; media whose bytes are gone (`bytesOf` null) are left out.
 */
export function restoreSnapshot(state: SimulatorState, snapshot: SimulatorSnapshot, at: Date, bytesOf: (meta: MediaMeta) => Buffer | null): void {
  for (const [id, info] of snapshot.senders) state.senders.set(id, info);
  for (const [senderId, address, last] of snapshot.windows) {
    if (at.getTime() - last < WINDOW_MS) state.recordCustomerMessage(senderId, address, new Date(last));
  }
  // Not pacing: a message sent before the restart is more than 6 s old by now, or near enough.
  for (const message of snapshot.sent) state.recordBusinessMessage(message, new Date(message.sent_at), false);
  for (const meta of snapshot.media) {
    const bytes = bytesOf(meta);
    if (bytes) state.putMedia({ ...meta, bytes });
  }
  for (const flow of snapshot.flows) state.flows.set(flow.id, flow);
  for (const [numberId, pem] of snapshot.flow_public_keys) state.flowPublicKeys.set(numberId, pem);
  for (const template of snapshot.templates) state.templates.set(template.id, template);
  for (const agent of snapshot.agents) state.agents.set(agent.id, agent);
  for (const [numberId, rate] of snapshot.throughput) state.throughput.setRate(numberId, rate);
}
