import { errorKind } from "@/lib/error-kind";
import type { OutboundMessage } from "@/lib/ports/provider/outbound";

export type ProviderPlatform = "PLATFORM_A" | "PLATFORM_B" | "PLATFORM_C";

/** What an adapter needs to act as one channel (credentials are unsealed just for the call). */
export interface ProviderChannel {
  platform: ProviderPlatform;
  /** PLATFORM_A phone_number_id, PLATFORM_B account_id, PLATFORM_C page_id. */
  senderId: string;
  accessToken: string;
}

/** Message.failure, exactly the spec's fields. */
export interface MessageFailure {
  provider: "provider" | "service";
  summary: string;
  code: string | number | null;
  subcode: string | number | null;
  type: string | null;
  title: string | null;
  message: string;
  fbtrace_id: string | null;
  http_status: number | null;
  occurred_at: string;
}

/** A send the provider refused, or that could not reach it. */
export class ProviderError extends errorKind("ProviderError") {
  constructor(
    readonly failure: MessageFailure,
    /** True for throttling, 5xx and network faults: the job retries; false is final (message failed). */
    readonly retryable: boolean,
  ) {
    super(failure.summary);
    this.name = "ProviderError";
  }
}

export interface ProviderPort {
  /**
   * Sends one message. `to` is the recipient's platform address: the wa_id / E.164 digits on
   * PLATFORM_A, the platform-scoped user id (IGSID / PSID) on PLATFORM_B and PLATFORM_C.
   * Resolves with the provider's message id; throws ProviderError.
   */
  send(channel: ProviderChannel, to: string, message: OutboundMessage): Promise<{ platformMessageId: string }>;
}
