import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { SimulatorState } from "@/lib/simulator/state";

/** What every simulator route gets: its state, clock, callback target, secrets and timers. */
export interface StatusDelays {
  sent: number;
  delivered: number;
  read: number;
}

export interface SimulatorContext {
  state: SimulatorState;
  now(): Date;
  /** Our webhook endpoint for a platform: `${callbackBaseUrl}/api/providers/platform-x/webhook`. */
  webhookUrl(platform: ProviderPlatform): string;
  appSecret(platform: ProviderPlatform): string;
  statusDelaysMs: StatusDelays;
  /**
   * How long a submitted message template waits for its simulated review (read at each submission).
   * Optional so contexts built by hand for other routes need not name it; absent → 2000 ms.
   */
  templateReviewMs?(): number;
  /** The simulator's own base URL (…/api/simulator) as seen by this request: media URLs use it. */
  publicBase(request: Request, path: string): string;
  /** Waits between webhook attempts (delivery.ts); absent → WEBHOOK_RETRY_DELAYS_MS. */
  webhookRetryDelaysMs?: readonly number[];
  /** How long `POST /customer/messages` waits for our endpoint to take the message (customer-delivery.ts); absent → 15 s. */
  customerWaitMs?: number;
  /** Waits; resolves false when the simulator was reset meanwhile (the caller must stop). */
  sleep(ms: number): Promise<boolean>;
  log(message: string, detail?: unknown): void;
}

export const PLATFORM_SLUG: Record<ProviderPlatform, string> = {
  PLATFORM_A: "platform-a",
  PLATFORM_B: "platform-b",
  PLATFORM_C: "platform-c",
};
