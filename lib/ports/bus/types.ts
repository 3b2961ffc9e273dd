import { errorKind } from "@/lib/error-kind";

/**
 * Fire-and-forget messages between the processes of one deployment (lib/ports/bus). Nothing is stored:
 * a subscriber that is not listening when a message is published never gets it. Payloads are short
 * strings (Postgres NOTIFY takes at most 8000 bytes), so a message names what changed, never the data.
 */
export type BusHandler = (payload: string) => void;

/** Stops one handler; the channel's own subscription ends with its last handler. Never throws. */
export type Unsubscribe = () => void;

export interface BusPort {
  readonly backend: "memory" | "postgres" | "redis";
  /** Resolves once the message is handed over (rejects when the backend is unreachable or it is too large). */
  publish(channel: string, payload: string): Promise<void>;
  /**
   * Resolves once the channel's subscription is in effect, so anything published after it reaches the
   * handler. One backend subscription per channel per bus, however many handlers: a process fans a
   * channel out to its own handlers in memory.
   */
  subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe>;
  /** Ends every subscription (and the dedicated connection, when the adapter has one). */
  close(): Promise<void>;
}

/** Postgres NOTIFY's own limit on a payload; every adapter refuses more, so a caller learns it on any backend. */
export const BUS_PAYLOAD_LIMIT_BYTES = 7999;

export class BusPayloadTooLarge extends errorKind("BusPayloadTooLarge") {
  constructor(bytes: number) {
    super(`A bus payload holds at most ${BUS_PAYLOAD_LIMIT_BYTES} bytes; this one has ${bytes}.`);
    this.name = "BusPayloadTooLarge";
  }
}

export function assertPayloadSize(payload: string): void {
  const bytes = Buffer.byteLength(payload, "utf8");
  if (bytes > BUS_PAYLOAD_LIMIT_BYTES) throw new BusPayloadTooLarge(bytes);
}
