import type { SimulatorContext } from "@/lib/simulator/context";
import { graphError, isRecord, json, readJson, simulatorError } from "@/lib/simulator/http";

/**
 * The Cloud API's per-number throughput: each business phone number may send so many messages a
 * second, 80 by default (level STANDARD) and up to 1,000 once upgraded (level HIGH). Beyond it the
 * provider refuses sends with 130429 "Rate limit hit" until the number is back within its level.
 *
 * The simulator counts in a fixed 1-second window per PLATFORM_A sender, opened by the first accepted
 * send after the previous window ended: at most `messages_per_second` accepted sends per window, so a
 * sender may burst one second's worth at once (and, across a window boundary, up to twice that within
 * a second, as with any fixed window). Only accepted sends use up the window; a refused send does not.
 * O(1) per send; one small record per sender, at most MAX_SENDERS of them (oldest forgotten first).
 *
 * Test hooks (the simulator's own routes, answering `{error:{message}}` on misuse):
 *   POST /control/numbers/throughput {phone_number_id, messages_per_second}   1..10000 (≥ 1000 is level HIGH)
 *        → {phone_number_id, messages_per_second, level}
 *   GET  /control/numbers/throughput?phone_number_id=   → {phone_number_id, messages_per_second, level, accepted, refused}
 *   GET  /control/numbers/sent?phone_number_id=   → {phone_number_id, accepted, kept, recipients, repeated_count, repeated: [{to, count}]}:
 *        how many messages each customer got from the number (the kept ones, MAX_SENT at most), those who got more than one first
 */
export const THROUGHPUT_ROUTES = [
  "POST /control/numbers/throughput",
  "GET /control/numbers/throughput?phone_number_id=",
  "GET /control/numbers/sent?phone_number_id=",
];
/** At most this many customers listed in `repeated`. */
const MAX_REPEATED = 100;

const DEFAULT_MESSAGES_PER_SECOND = 80;
const HIGH_MESSAGES_PER_SECOND = 1_000;
const MAX_MESSAGES_PER_SECOND = 10_000;
const WINDOW_MS = 1_000;
const MAX_SENDERS = 10_000;

type ThroughputLevel = "STANDARD" | "HIGH";

export interface ThroughputStats {
  messagesPerSecond: number;
  level: ThroughputLevel;
  /** Sends accepted since the last reset. */
  accepted: number;
  /** Sends refused with 130429 since the last reset. */
  refused: number;
}

interface SenderWindow {
  /** Set through the control route; absent: the default. */
  messagesPerSecond?: number;
  windowStart: number;
  inWindow: number;
  accepted: number;
  refused: number;
}

function throughputLevel(messagesPerSecond: number): ThroughputLevel {
  return messagesPerSecond >= HIGH_MESSAGES_PER_SECOND ? "HIGH" : "STANDARD";
}

export class ThroughputMeter {
  private readonly senders = new Map<string, SenderWindow>();

  private entry(senderId: string): SenderWindow {
    let entry = this.senders.get(senderId);
    if (!entry) {
      entry = { windowStart: Number.NEGATIVE_INFINITY, inWindow: 0, accepted: 0, refused: 0 };
      this.senders.set(senderId, entry);
      if (this.senders.size > MAX_SENDERS) this.senders.delete(this.senders.keys().next().value!);
    }
    return entry;
  }

  rate(senderId: string): number {
    return this.senders.get(senderId)?.messagesPerSecond ?? DEFAULT_MESSAGES_PER_SECOND;
  }

  setRate(senderId: string, messagesPerSecond: number): void {
    this.entry(senderId).messagesPerSecond = messagesPerSecond;
  }

  /** True (and counted as a refusal) when one more send now would go beyond the sender's rate. */
  refuses(senderId: string, at: Date): boolean {
    const entry = this.senders.get(senderId);
    if (!entry || at.getTime() - entry.windowStart >= WINDOW_MS || entry.inWindow < this.rate(senderId)) return false;
    entry.refused += 1;
    return true;
  }

  /** An accepted send: uses up one place in the current window (opening a new one when the last ended). */
  accept(senderId: string, at: Date): void {
    const entry = this.entry(senderId);
    const ms = at.getTime();
    if (ms - entry.windowStart >= WINDOW_MS) {
      entry.windowStart = ms;
      entry.inWindow = 0;
    }
    entry.inWindow += 1;
    entry.accepted += 1;
  }

  /** The rates set through the control route (a number's throughput level, kept across restarts). */
  configuredRates(): [string, number][] {
    const out: [string, number][] = [];
    for (const [senderId, entry] of this.senders) if (entry.messagesPerSecond !== undefined) out.push([senderId, entry.messagesPerSecond]);
    return out;
  }

  stats(senderId: string): ThroughputStats {
    const entry = this.senders.get(senderId);
    const messagesPerSecond = this.rate(senderId);
    return { messagesPerSecond, level: throughputLevel(messagesPerSecond), accepted: entry?.accepted ?? 0, refused: entry?.refused ?? 0 };
  }

  reset(): void {
    this.senders.clear();
  }
}

/** The provider's answer to a send beyond the number's throughput. */
export function throughputRefusal(): Response {
  return graphError({
    status: 400,
    code: 130429,
    message: "(#130429) Rate limit hit",
    details: "Cloud API message throughput has been reached.",
    whatsapp: true,
  });
}

async function setThroughput(ctx: SimulatorContext, request: Request): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok || !isRecord(body.value)) return simulatorError(400, "The request body must be a JSON object");
  const { phone_number_id: number, messages_per_second: rate } = body.value;
  if (typeof number !== "string" || number === "") return simulatorError(400, "phone_number_id is required");
  if (typeof rate !== "number" || !Number.isInteger(rate) || rate < 1 || rate > MAX_MESSAGES_PER_SECOND) {
    return simulatorError(400, `messages_per_second must be an integer from 1 to ${MAX_MESSAGES_PER_SECOND}`);
  }
  ctx.state.throughput.setRate(number, rate);
  return json(200, { phone_number_id: number, messages_per_second: rate, level: throughputLevel(rate) });
}

function readThroughput(ctx: SimulatorContext, request: Request): Response {
  const number = new URL(request.url).searchParams.get("phone_number_id") ?? "";
  if (number === "") return simulatorError(400, "phone_number_id is required");
  const stats = ctx.state.throughput.stats(number);
  return json(200, {
    phone_number_id: number,
    messages_per_second: stats.messagesPerSecond,
    level: stats.level,
    accepted: stats.accepted,
    refused: stats.refused,
  });
}

/**
 * Messages per customer from one number, from the kept list: a fault scenario checks that a crash never
 * made the service send anyone the same broadcast twice. `accepted` (the meter's count since the last
 * reset) above `kept` means older messages were dropped from the list and are not counted here.
 */
function readSent(ctx: SimulatorContext, request: Request): Response {
  const number = new URL(request.url).searchParams.get("phone_number_id") ?? "";
  if (number === "") return simulatorError(400, "phone_number_id is required");
  const perRecipient = new Map<string, number>();
  for (const message of ctx.state.allSent()) {
    if (message.sender_id === number) perRecipient.set(message.to, (perRecipient.get(message.to) ?? 0) + 1);
  }
  const repeated = [...perRecipient].filter(([, count]) => count > 1).map(([to, count]) => ({ to, count }));
  return json(200, {
    phone_number_id: number,
    accepted: ctx.state.throughput.stats(number).accepted,
    kept: [...perRecipient.values()].reduce((sum, n) => sum + n, 0),
    recipients: perRecipient.size,
    repeated_count: repeated.length,
    repeated: repeated.slice(0, MAX_REPEATED),
  });
}

/** The response for /control/numbers/throughput and /control/numbers/sent, or null when `segments` is another route. */
export function routeThroughput(ctx: SimulatorContext, request: Request, method: string, segments: string[]): Response | Promise<Response> | null {
  const [head, second, third] = segments;
  if (head !== "control" || second !== "numbers" || segments.length !== 3) return null;
  if (third === "sent") return method === "GET" ? readSent(ctx, request) : simulatorError(405, "Use GET for this route");
  if (third !== "throughput") return null;
  if (method === "POST") return setThroughput(ctx, request);
  if (method === "GET") return readThroughput(ctx, request);
  return simulatorError(405, "Use POST or GET for this route");
}
