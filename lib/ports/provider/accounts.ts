import { graphRequest, type AdapterOptions } from "@/lib/ports/provider/graph-http";
import { accountClient as client, callTime as at, unexpectedAnswer } from "@/lib/ports/provider/account-call";
import { type ProviderAccount, type ProviderAccountStatuses, type ProviderAccountsPort } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/json";

/**
 * PLATFORM_A's account reads through the Graph client:
 *   GET {graph}/{phone_number_id}?fields=status,throughput → {id, status, throughput: {level}}
 *   GET {graph}/{waba_id}?fields=account_review_status,business_verification_status,primary_funding_id
 *       → {id, account_review_status, business_verification_status, primary_funding_id?}
 * A field the provider leaves out is null (no funding id: no payment method). The two reads stand
 * alone: a token that cannot see the business account still tells the number's status.
 */
const PHONE_FIELDS = "status,throughput";
const ACCOUNT_FIELDS = "account_review_status,business_verification_status,primary_funding_id";

/** Readiness waits on these reads (connect, GET /readiness): a slow provider must not hold them for the full send timeout. */
const READ_TIMEOUT_MS = 5_000;

function stringOrNull(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return typeof value === "string" && value !== "" ? value : null;
}

export function createAccountsPort(options: AdapterOptions): ProviderAccountsPort {
  const read = async (account: ProviderAccount, id: string, fields: string): Promise<Record<string, unknown>> => {
    const graph = { ...client(options, account), timeoutMs: Math.min(options.timeoutMs ?? READ_TIMEOUT_MS, READ_TIMEOUT_MS) };
    const answer = await graphRequest(graph, { method: "GET", path: `${encodeURIComponent(id)}?fields=${fields}` });
    if (!isRecord(answer)) throw unexpectedAnswer("The provider did not return the requested fields", answer, at(options));
    return answer;
  };
  return {
    async readStatuses(account) {
      const [phone, business] = await Promise.allSettled([
        read(account, account.phoneNumberId, PHONE_FIELDS),
        account.businessAccountId ? read(account, account.businessAccountId, ACCOUNT_FIELDS) : Promise.reject(new Error("no business account id")),
      ]);
      if (phone.status === "rejected" && business.status === "rejected") throw phone.reason;
      const statuses: ProviderAccountStatuses = {
        phoneNumber:
          phone.status === "fulfilled"
            ? {
                status: stringOrNull(phone.value.status),
                throughputLevel: isRecord(phone.value.throughput) ? stringOrNull(phone.value.throughput.level) : null,
              }
            : null,
        businessAccount:
          business.status === "fulfilled"
            ? {
                accountReviewStatus: stringOrNull(business.value.account_review_status),
                businessVerificationStatus: stringOrNull(business.value.business_verification_status),
                primaryFundingId: stringOrNull(business.value.primary_funding_id),
              }
            : null,
      };
      return statuses;
    },
  };
}
