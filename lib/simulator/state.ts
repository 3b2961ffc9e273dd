import { createHash } from "node:crypto";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { conversationId } from "@/lib/simulator/ids";
import { ThroughputMeter, type ThroughputStats } from "@/lib/simulator/throughput";

/**
 * Everything one simulator instance remembers, in memory: which platform each sender id belongs
 * to, when each customer last wrote to each sender (the 24-hour window), when each sender last wrote
 * to each customer (pair pacing), every business message accepted, and uploaded media.
 * Bounded so a long-running dev server does not grow without limit. What the provider itself would
 * keep across a restart is saved by persistence.ts (snapshot.ts says which parts), told by onChange.
 */
export const WINDOW_MS = 24 * 60 * 60 * 1000;
export const PAIR_PACING_MS = 6_000;
const MAX_SENT = 5_000;
// Kept between MAX_SENT and MAX_SENT + 1,000 (trimmed in steps, recordBusinessMessage).
const MAX_MEDIA = 500;
const MAX_MEDIA_BYTES = 200 * 1024 * 1024;
/**
 * Per-pair memory: a send to a new customer adds an entry to two maps. Pacing entries older than 6 s
 * decide nothing and are swept; open conversations are kept for the most recent pairs only (a pair
 * beyond them opens a new conversation id on its next send, as after 24 h).
 */
const PACING_SWEEP_AT = 20_000;
export const MAX_CONVERSATIONS = 50_000;
/** Customers' open windows kept (most recent first); one beyond them writes again to reopen it. */
export const MAX_WINDOWS = 50_000;
/** The conversation and window maps hold up to this many entries past their bound before the oldest go. */
export const TRIM_STEP = 1_000;

/**
 * Drops a Map's oldest entries (insertion order) down to `max` once it holds more than `max` + TRIM_STEP.
 * Not one per insert: a Map keeps each deleted entry as a hole at its head until it rehashes, and every
 * later walk from the start steps over them all. Evicting one oldest entry per new pair made each call
 * cost more as the holes piled up (58 µs at 150,000 customers, a twentieth of the simulator's CPU in the
 * benchmark's broadcast); a walk per TRIM_STEP inserts costs a fraction of a microsecond each.
 */
function trimOldest(map: Map<string, unknown>, max: number): void {
  if (map.size <= max + TRIM_STEP) return;
  for (const key of map.keys()) {
    if (map.size <= max) break;
    map.delete(key);
  }
}

export type BusinessStatus = "accepted" | "sent" | "delivered" | "read";

export interface SenderInfo {
  platform: ProviderPlatform;
  /** PLATFORM_A only: the business account id (webhook entry.id) and display number (metadata). */
  businessAccountId: string;
  displayPhoneNumber: string;
}

export interface BusinessMessage {
  id: string;
  platform: ProviderPlatform;
  sender_id: string;
  /** Customer address as the simulator keys it (PLATFORM_A digits without "+"). */
  to: string;
  type: string;
  /** The request body exactly as the provider received it. */
  body: Record<string, unknown>;
  sent_at: string;
  status: BusinessStatus;
}

/** A flow created through the Flows API (`POST /{waba}/flows`), as the simulator keeps it. */
export interface SimulatorFlow {
  id: string;
  business_account_id: string;
  name: string;
  flow_json: Record<string, unknown>;
  endpoint_uri: string | null;
  status: "DRAFT" | "PUBLISHED" | "DEPRECATED" | "BLOCKED" | "THROTTLED";
  validation_errors: Record<string, unknown>[];
  created_at: string;
  /** The categories it was created with (GET /{flow_id}?fields=categories). */
  categories?: string[];
  /** While THROTTLED: when each of its recent messages was accepted (ms), for the provider's 10-an-hour cap. */
  recent_sends?: number[];
}

/** The review states a message template can be in at the simulated provider. */
export type SimulatorTemplateStatus = "PENDING" | "APPROVED" | "REJECTED" | "PAUSED" | "DISABLED";

/** A message template submitted through `POST /{waba}/message_templates`, as the simulator keeps it. */
export interface SimulatorTemplate {
  /** Numeric string below 2^53, so it survives as the JSON number the status webhook carries. */
  id: string;
  business_account_id: string;
  name: string;
  language: string;
  category: string;
  parameter_format: string | null;
  components: Record<string, unknown>[];
  status: SimulatorTemplateStatus;
  /** The provider's reason of the last review result ("NONE" when approved or still pending). */
  reason: string;
  created_at: string;
}

/** A business agent made through `POST /{phone_number_id}/business_agents` (simulator/agents.ts): one per number. */
export interface SimulatorAgent {
  id: string;
  phone_number_id: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  skills: Record<string, unknown>[];
  created_at: string;
  updated_at: string;
}

/** PLATFORM_A status items due for one sender, posted together as one webhook (webhooks.ts). */
export interface StatusBatch {
  items: Record<string, unknown>[];
  /** Each waiting status chain, told whether the webhook went out (false: reset meanwhile). */
  settle: ((delivered: boolean) => void)[];
}

export interface StoredMedia {
  id: string;
  bytes: Buffer;
  mime_type: string;
  sha256: string;
  file_size: number;
  filename: string | null;
}

/** PLATFORM_A addresses are compared as digits; B/C user ids as they are. */
export function addressKey(platform: ProviderPlatform, address: string): string {
  return platform === "PLATFORM_A" ? address.replace(/^\+/, "") : address;
}

const PAIR_SEPARATOR = "\u0000";

function pairKey(senderId: string, address: string): string {
  return `${senderId}${PAIR_SEPARATOR}${address}`;
}

/** Stable stand-ins when a test or person did not name the business account / display number. */
function digitsFrom(seed: string, length: number): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  return BigInt(`0x${hex}`).toString().slice(0, length);
}

export class SimulatorState {
  readonly senders = new Map<string, SenderInfo>();
  private readonly lastCustomerAt = new Map<string, number>();
  private readonly lastBusinessAt = new Map<string, number>();
  private pacingSweepAt = PACING_SWEEP_AT;
  private readonly conversations = new Map<string, { id: string; expiresAt: number }>();
  private sent: BusinessMessage[] = [];
  /** The same messages by id: every status callback looks its message up (thousands a second in the bench). */
  private sentById = new Map<string, BusinessMessage>();
  private readonly media = new Map<string, StoredMedia>();
  private mediaBytes = 0;
  /** Flows API: flows by id. */
  readonly flows = new Map<string, SimulatorFlow>();
  /** DATA_EXCHANGE: the PEM public key each phone number id registered (whatsapp_business_encryption). */
  readonly flowPublicKeys = new Map<string, string>();
  /** Test hook: the next publish under this business account fails with this provider error. */
  readonly flowPublishFailures = new Map<string, { code: number; message: string }>();
  /** Message templates API: templates by id. */
  readonly templates = new Map<string, SimulatorTemplate>();
  /** Business agents by id. */
  readonly agents = new Map<string, SimulatorAgent>();
  /** Test hook: the next create or update of the agent of this phone number id fails with this provider error. */
  readonly agentFailures = new Map<string, { code: number; message: string; status: number }>();
  /** Per-number throughput (130429) and its counts (throughput.ts). */
  readonly throughput = new ThroughputMeter();
  /** PLATFORM_A statuses collecting for each sender's next webhook, and when its last one went out (ms). */
  readonly statusBatches = new Map<string, StatusBatch>();
  readonly lastStatusPostAt = new Map<string, number>();
  /** Moves at each reset: work started before one (a status chain) stops when it sees another value. */
  epoch = 0;
  /** Told after each change worth keeping across a restart (persistence.ts debounces its saves on it). */
  onChange: (() => void) | null = null;

  changed(): void {
    this.onChange?.();
  }

  reset(): void {
    this.epoch += 1;
    this.senders.clear();
    this.lastCustomerAt.clear();
    this.lastBusinessAt.clear();
    this.pacingSweepAt = PACING_SWEEP_AT;
    this.conversations.clear();
    this.sent = [];
    this.sentById.clear();
    this.media.clear();
    this.mediaBytes = 0;
    this.flows.clear();
    this.flowPublicKeys.clear();
    this.flowPublishFailures.clear();
    this.templates.clear();
    this.agents.clear();
    this.agentFailures.clear();
    this.throughput.reset();
    this.statusBatches.clear();
    this.lastStatusPostAt.clear();
    this.changed();
  }

  /** The sender's throughput, and how many sends it accepted and refused with 130429 since the last reset. */
  throughputStats(senderId: string): ThroughputStats {
    return this.throughput.stats(senderId);
  }

  /** Learns (or updates) a sender; later sends to it are validated and answered for its platform. */
  rememberSender(senderId: string, platform: ProviderPlatform, overrides: Partial<Omit<SenderInfo, "platform">> = {}): SenderInfo {
    const known = this.senders.get(senderId);
    const info: SenderInfo = {
      platform,
      businessAccountId: overrides.businessAccountId ?? known?.businessAccountId ?? digitsFrom(`waba:${senderId}`, 15),
      displayPhoneNumber: overrides.displayPhoneNumber ?? known?.displayPhoneNumber ?? `1555${digitsFrom(`phone:${senderId}`, 7)}`,
    };
    this.senders.set(senderId, info);
    this.changed();
    return info;
  }

  senderInfo(senderId: string, platform: ProviderPlatform): SenderInfo {
    return this.senders.get(senderId) ?? this.rememberSender(senderId, platform);
  }

  recordCustomerMessage(senderId: string, address: string, at: Date): void {
    const key = pairKey(senderId, address);
    // Re-inserted so the Map's order is by last message: the oldest window goes first when full.
    this.lastCustomerAt.delete(key);
    this.lastCustomerAt.set(key, at.getTime());
    trimOldest(this.lastCustomerAt, MAX_WINDOWS);
    this.changed();
  }

  /** The windows still open at `at`: sender id, customer address, when the customer last wrote (ms). */
  openWindows(at: Date): [string, string, number][] {
    const out: [string, string, number][] = [];
    for (const [key, last] of this.lastCustomerAt) {
      if (at.getTime() - last >= WINDOW_MS) continue;
      const split = key.indexOf(PAIR_SEPARATOR);
      out.push([key.slice(0, split), key.slice(split + 1), last]);
    }
    return out;
  }

  withinWindow(senderId: string, address: string, at: Date): boolean {
    const last = this.lastCustomerAt.get(pairKey(senderId, address));
    return last !== undefined && at.getTime() - last < WINDOW_MS;
  }

  /** True when the sender wrote to this customer less than 6 s ago. */
  paced(senderId: string, address: string, at: Date): boolean {
    const last = this.lastBusinessAt.get(pairKey(senderId, address));
    return last !== undefined && at.getTime() - last < PAIR_PACING_MS;
  }

  /** The open conversation (24 h) for pricing payloads, opened on first use. */
  conversation(senderId: string, address: string, at: Date): { id: string; expiresAt: number } {
    const key = pairKey(senderId, address);
    const open = this.conversations.get(key);
    if (open && open.expiresAt > at.getTime()) return open;
    const fresh = { id: conversationId(), expiresAt: at.getTime() + WINDOW_MS };
    this.conversations.delete(key);
    this.conversations.set(key, fresh);
    // Oldest opened first out (a Map keeps insertion order).
    trimOldest(this.conversations, MAX_CONVERSATIONS);
    return fresh;
  }

  /** Stores an accepted business message; `paces` false for actions that are not messages (B/C reactions). */
  recordBusinessMessage(message: BusinessMessage, at: Date, paces = true): void {
    if (paces) {
      this.lastBusinessAt.set(pairKey(message.sender_id, message.to), at.getTime());
      if (this.lastBusinessAt.size > this.pacingSweepAt) {
        for (const [key, last] of this.lastBusinessAt) if (at.getTime() - last >= PAIR_PACING_MS) this.lastBusinessAt.delete(key);
        // Many pairs still within their 6 s: the next sweep waits until the map has doubled.
        this.pacingSweepAt = Math.max(PACING_SWEEP_AT, this.lastBusinessAt.size * 2);
      }
    }
    this.sent.push(message);
    this.sentById.set(message.id, message);
    // Trimmed a thousand at a time: one splice per send moved all 5,000 entries each time.
    if (this.sent.length > MAX_SENT + 1000) for (const old of this.sent.splice(0, this.sent.length - MAX_SENT)) this.sentById.delete(old.id);
    this.changed();
  }

  setStatus(id: string, status: BusinessStatus): void {
    const message = this.sentById.get(id);
    if (!message) return;
    message.status = status;
    this.changed();
  }

  /** How many pairs the pacing and conversation maps hold (they must not grow with every customer ever sent to). */
  trackedPairs(): { pacing: number; conversations: number } {
    return { pacing: this.lastBusinessAt.size, conversations: this.conversations.size };
  }

  inbox(senderId: string, address: string): BusinessMessage[] {
    return this.sent.filter((m) => m.sender_id === senderId && m.to === address);
  }

  allSent(): readonly BusinessMessage[] {
    return this.sent;
  }

  putMedia(item: StoredMedia): void {
    this.media.set(item.id, item);
    this.mediaBytes += item.file_size;
    // Oldest first out (Map keeps insertion order).
    for (const [id, old] of this.media) {
      if (this.media.size <= MAX_MEDIA && this.mediaBytes <= MAX_MEDIA_BYTES) break;
      if (id === item.id) break;
      this.media.delete(id);
      this.mediaBytes -= old.file_size;
    }
    this.changed();
  }

  allMedia(): IterableIterator<StoredMedia> {
    return this.media.values();
  }

  getMedia(id: string): StoredMedia | undefined {
    return this.media.get(id);
  }
}
