import { graphRequest, type AdapterOptions } from "@/lib/ports/provider/graph-http";
import { accountClient as client, callTime as at, unexpectedAnswer } from "@/lib/ports/provider/account-call";
import { type ProviderAccount, type ProviderFlowError, type ProviderFlowStatus, type ProviderFlowsPort } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/json";

/**
 * PLATFORM_A's Flows API through the Graph client:
 *   POST {graph}/{waba_id}/flows {name, categories, flow_json (a string), endpoint_uri?} → {id, success, validation_errors?}
 *   POST {graph}/{flow_id}/publish | /deprecate → {success: true}
 *   GET  {graph}/{flow_id}?fields=id,name,status,validation_errors
 *   POST {graph}/{phone_number_id}/whatsapp_business_encryption {business_public_key} → {success: true}
 * Refusals (139001 update, 139002 publish, 139003 deprecate, 100 invalid parameter, 190 token) come back
 * as ProviderError with the provider's code, like a refused send.
 */
const FLOW_STATUSES: ReadonlySet<string> = new Set<ProviderFlowStatus>(["DRAFT", "PUBLISHED", "DEPRECATED", "BLOCKED", "THROTTLED"]);

/** The category every flow is filed under: the spec's flows carry no category, and the provider requires at least one. */
const DEFAULT_FLOW_CATEGORIES = ["OTHER"] as const;

/** The provider's validation errors, each kept as sent (only the documented keys, and only when they hold their type). */
function parseValidationErrors(value: unknown): ProviderFlowError[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((item) => {
    const out: ProviderFlowError = {
      error: typeof item.error === "string" ? item.error : "UNKNOWN",
      error_type: typeof item.error_type === "string" ? item.error_type : "UNKNOWN",
      message: typeof item.message === "string" ? item.message : "",
    };
    for (const key of ["line_start", "line_end", "column_start", "column_end"] as const) {
      if (typeof item[key] === "number") out[key] = item[key];
    }
    if (Array.isArray(item.pointers)) out.pointers = item.pointers;
    return out;
  });
}

async function expectSuccess(options: AdapterOptions, account: ProviderAccount, path: string, body?: unknown): Promise<void> {
  const answer = await graphRequest(client(options, account), { method: "POST", path, body });
  if (!isRecord(answer) || answer.success !== true) throw unexpectedAnswer(`The provider did not confirm POST /${path}`, answer, at(options));
}

export function createFlowsPort(options: AdapterOptions): ProviderFlowsPort {
  return {
    async createFlow(account, input) {
      const body: Record<string, unknown> = {
        name: input.name,
        categories: [...DEFAULT_FLOW_CATEGORIES],
        flow_json: JSON.stringify(input.flowJson),
      };
      if (input.endpointUri) body.endpoint_uri = input.endpointUri;
      const answer = await graphRequest(client(options, account), {
        method: "POST",
        path: `${encodeURIComponent(account.businessAccountId)}/flows`,
        body,
      });
      const id = isRecord(answer) && typeof answer.id === "string" && answer.id !== "" ? answer.id : null;
      if (!id) throw unexpectedAnswer("The provider created the flow but returned no flow id", answer, at(options));
      return { id, validationErrors: parseValidationErrors(isRecord(answer) ? answer.validation_errors : undefined) };
    },

    publishFlow: (account, flowId) => expectSuccess(options, account, `${encodeURIComponent(flowId)}/publish`),

    deprecateFlow: (account, flowId) => expectSuccess(options, account, `${encodeURIComponent(flowId)}/deprecate`),

    async getFlow(account, flowId) {
      const answer = await graphRequest(client(options, account), {
        method: "GET",
        path: `${encodeURIComponent(flowId)}?fields=id,name,status,validation_errors`,
      });
      const status = isRecord(answer) && typeof answer.status === "string" && FLOW_STATUSES.has(answer.status) ? (answer.status as ProviderFlowStatus) : null;
      if (!isRecord(answer) || !status) throw unexpectedAnswer(`The provider answered GET /${flowId} without a known flow status`, answer, at(options));
      return {
        id: typeof answer.id === "string" ? answer.id : flowId,
        status,
        validationErrors: parseValidationErrors(answer.validation_errors),
      };
    },

    registerEncryptionKey: (account, publicKeyPem) =>
      expectSuccess(options, account, `${encodeURIComponent(account.phoneNumberId)}/whatsapp_business_encryption`, {
        business_public_key: publicKeyPem,
      }),
  };
}
