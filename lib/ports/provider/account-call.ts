import type { AdapterOptions, GraphClientOptions } from "@/lib/ports/provider/graph-http";
import { ProviderError, type ProviderAccount } from "@/lib/ports/provider/types";

/** What the business-account adapters (Flows, templates) share: the Graph client of one account, the call's time, a broken answer. */
export function accountClient(options: AdapterOptions, account: ProviderAccount): GraphClientOptions {
  return { baseUrl: options.graphUrl, accessToken: account.accessToken, timeoutMs: options.timeoutMs, fetch: options.fetch, now: options.now };
}

export function callTime(options: AdapterOptions): Date {
  return options.now?.() ?? new Date();
}

/** A 2xx answer that does not say what the call promised: final, the raw answer kept for the operator. */
export function unexpectedAnswer(summary: string, answer: unknown, when: Date): ProviderError {
  return new ProviderError(
    {
      provider: "provider",
      summary,
      code: "invalid_response",
      subcode: null,
      type: null,
      title: null,
      message: JSON.stringify(answer ?? null).slice(0, 500),
      fbtrace_id: null,
      http_status: 200,
      occurred_at: when.toISOString(),
    },
    false,
  );
}
