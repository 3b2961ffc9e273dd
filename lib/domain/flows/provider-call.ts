import { SvcError } from "@/lib/errors";
import { ProviderError } from "@/lib/ports/provider/types";

/**
 * A provider call made inside a request (refresh, deprecate): the provider's refusal or absence becomes
 * 502 provider_error carrying the provider's failure fields, so the caller sees the provider's own
 * code and message rather than a 500.
 */
export async function providerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!ProviderError.is(error)) throw error;
    throw new SvcError("provider_error", `The provider refused or did not answer: ${error.failure.summary}`, {
      retryable: error.retryable,
      failure: error.failure,
    });
  }
}
