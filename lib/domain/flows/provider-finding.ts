import type { ProviderFlowError } from "@/lib/ports/provider/types";
/** A provider validation error as a Flow's validation_errors item (the provider's fields, code = its error name). */
export function providerFinding(error: ProviderFlowError): Record<string, unknown> & { code: string; message: string } {
  const { error: code, ...rest } = error;
  return { ...rest, code: code || "PROVIDER_VALIDATION_ERROR", message: error.message };
}
