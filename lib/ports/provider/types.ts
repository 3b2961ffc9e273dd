import { errorKind } from "@/lib/error-kind";
import type { OutboundMessage } from "@/lib/ports/provider/outbound";
import type { ProviderAgentsPort } from "@/lib/ports/provider/agents";

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

/** The Cloud API's refusal of a send beyond the number's throughput (messages a second): "(#130429) Rate limit hit". */
const THROUGHPUT_ERROR_CODE = 130429;

/**
 * True for a ProviderError that is a throughput refusal (130429): retryable (graph-http.ts THROTTLING_CODES),
 * and what a sender pacing itself (broadcasts) slows down on rather than counting as a failed message.
 */
export function isThroughputError(error: unknown): error is ProviderError {
  if (!ProviderError.is(error)) return false;
  const code = error.failure.code;
  return code === THROUGHPUT_ERROR_CODE || code === String(THROUGHPUT_ERROR_CODE);
}

export interface ProviderPort {
  /**
   * Sends one message. `to` is the recipient's platform address: the wa_id / E.164 digits on
   * PLATFORM_A, the platform-scoped user id (IGSID / PSID) on PLATFORM_B and PLATFORM_C.
   * Resolves with the provider's message id; throws ProviderError.
   */
  send(channel: ProviderChannel, to: string, message: OutboundMessage): Promise<{ platformMessageId: string }>;
  /** PLATFORM_A's Flows API. */
  readonly flows: ProviderFlowsPort;
  /** PLATFORM_A's message templates API. */
  readonly templates: ProviderTemplatesPort;
  /** PLATFORM_A's phone number and business account reads. */
  readonly accounts: ProviderAccountsPort;
  /** PLATFORM_A's business agent per phone number (lib/ports/provider/agents.ts). */
  readonly agents: ProviderAgentsPort;
}

/**
 * What the provider says about a number and its business account: the statuses template submission
 * waits on (docs/spec/service-spec.md PublishReadiness). A half is null when it could not be read.
 */
export interface ProviderAccountStatuses {
  /**
   * `status` of the phone number node: CONNECTED, PENDING, OFFLINE, FLAGGED, RESTRICTED, ...; and its
   * `throughput.level` (STANDARD: 80 messages a second, HIGH: 1,000, NOT_APPLICABLE), null when not answered.
   */
  phoneNumber: { status: string | null; throughputLevel?: string | null } | null;
  /** The business account node's review and verification, and its payment method (primary_funding_id; null: none). */
  businessAccount: { accountReviewStatus: string | null; businessVerificationStatus: string | null; primaryFundingId: string | null } | null;
}

/** PLATFORM_A's account reads (Graph). Throws ProviderError only when neither half could be read. */
export interface ProviderAccountsPort {
  /** `GET /{phone_number_id}?fields=status,throughput` and `GET /{waba_id}?fields=account_review_status,business_verification_status,primary_funding_id`. */
  readStatuses(account: ProviderAccount): Promise<ProviderAccountStatuses>;
}

/** A template as submitted for review (docs/spec/decisions.md "Templates"): the provider's own shape. */
export interface ProviderTemplateSubmission {
  name: string;
  language: string;
  category: "UTILITY" | "MARKETING" | "AUTHENTICATION";
  parameter_format?: "POSITIONAL" | "NAMED" | undefined;
  /** As validated by lib/shared/templates/validate.ts; FLOW buttons carry the provider flow id (flow_id). */
  components: unknown[];
}

/**
 * PLATFORM_A's message templates API (Graph): submit for review and delete. Review results come back
 * on the provider webhook (`message_template_status_update`), not from these calls. A refusal throws
 * ProviderError with the provider's code and message.
 */
export interface ProviderTemplatesPort {
  /** `POST /{waba}/message_templates` → the provider's template id, its status (PENDING) and category. */
  submit(account: ProviderAccount, template: ProviderTemplateSubmission): Promise<{ id: string; status: string; category: string | null }>;
  /** `DELETE /{waba}/message_templates?name=<name>&hsm_id=<id>`: that one template (one language) only. */
  remove(account: ProviderAccount, template: { name: string; metaTemplateId: string }): Promise<void>;
}

/** A business account the provider's Flows API acts on (PLATFORM_A only). */
export interface ProviderAccount {
  /** The business account id (WABA) flows are created under. */
  businessAccountId: string;
  /** The phone number id, for the encryption key registration of DATA_EXCHANGE flows. */
  phoneNumberId: string;
  accessToken: string;
}

/** A provider validation error of a Flow JSON, in the provider's shape. */
export interface ProviderFlowError {
  error: string;
  error_type: string;
  message: string;
  line_start?: number;
  line_end?: number;
  column_start?: number;
  column_end?: number;
  pointers?: unknown[];
}

export type ProviderFlowStatus = "DRAFT" | "PUBLISHED" | "DEPRECATED" | "BLOCKED" | "THROTTLED";

/**
 * The provider's Flows API (Graph): create a flow with its JSON, publish, deprecate, read, and
 * register the number's public key for DATA_EXCHANGE endpoints. Failures throw ProviderError.
 */
export interface ProviderFlowsPort {
  /** `POST /{waba}/flows` {name, categories, flow_json, endpoint_uri?}: the new flow's id and the JSON's validation errors. */
  createFlow(
    account: ProviderAccount,
    input: { name: string; flowJson: Record<string, unknown>; endpointUri?: string },
  ): Promise<{ id: string; validationErrors: ProviderFlowError[] }>;
  /** `POST /{flow_id}/publish`. */
  publishFlow(account: ProviderAccount, flowId: string): Promise<void>;
  /** `POST /{flow_id}/deprecate`. */
  deprecateFlow(account: ProviderAccount, flowId: string): Promise<void>;
  /** `GET /{flow_id}?fields=id,name,status,validation_errors`. */
  getFlow(account: ProviderAccount, flowId: string): Promise<{ id: string; status: ProviderFlowStatus; validationErrors: ProviderFlowError[] }>;
  /** `POST /{phone_number_id}/whatsapp_business_encryption` {business_public_key}. */
  registerEncryptionKey(account: ProviderAccount, publicKeyPem: string): Promise<void>;
}
