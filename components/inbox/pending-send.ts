import type { MessageSendRequest } from "@/lib/client/inbox";

/**
 * A message the operator composed that the thread does not list yet: "sending" until POST /messages
 * answers, "accepted" until the thread's poll brings the real message (then it is dropped), or
 * "failed" with the server's error. `key` is its Idempotency-Key, kept for retries.
 */
export interface PendingSend {
  key: string;
  request: MessageSendRequest;
  state: "sending" | "accepted" | "failed";
  error: unknown;
  messageId: string | null;
  createdAt: number;
}

/** crypto.randomUUID where the browser offers it (secure contexts), else the same shape from getRandomValues. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
