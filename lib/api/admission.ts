// The wrapper's admission steps (version, key or operator, rate limit, scope) and the monthly quota:
// shared by defineRoute and the MCP server, which admits a key once for a whole tools/call.
import { SvcError } from "@/lib/errors";
import { API_VERSION } from "@/lib/config";
import { hasScope, type Scope } from "@/lib/shared/scopes";
import type { DashboardScope } from "@/lib/domain/members/roles";
import { quotaPeriod, startOfNextMonth } from "@/lib/domain/plans";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import type { HitResult } from "@/lib/ports/limiter";
import { authenticate, type AuthMode } from "./auth";
import { enforceKeyOrigin } from "./cors";
import type { Call } from "./call";

/** One point of the key's monthly quota, taken after the request is admitted and parsed (429 monthly_quota_exceeded when spent). */
export async function countQuota(key: AuthenticatedKey, call: Pick<Call, "runtime" | "now">): Promise<void> {
  const quota = await call.runtime.ports.limiter.hit("quota", `${key.key.id}:${quotaPeriod(call.now)}`, key.plan.monthlyRequests, 32 * 86_400);
  if (!quota.allowed) throw limitExceeded("monthly_quota_exceeded", { ...quota, resetAt: startOfNextMonth(call.now) });
}

/** The first steps: version, then the key (and its per-key rate limit) or the operator, then the scope. Returns the key, if one called. */
export async function admit(scope: Scope | DashboardScope | null, auth: AuthMode, call: Call): Promise<AuthenticatedKey | null> {
  const requestedVersion = call.request.headers.get("svc-version");
  if (requestedVersion !== null && requestedVersion !== API_VERSION) {
    throw new SvcError("invalid_api_version", `Svc-Version '${requestedVersion}' is not supported. Supported: ${API_VERSION}.`, {
      supported_versions: [API_VERSION],
    });
  }
  const operator = call.operator;
  if (operator) {
    if (scope && !hasScope(operator.scopes, scope)) {
      throw new SvcError(
        "insufficient_scope",
        `Your role (${operator.role}) does not allow this: it needs the '${scope}' permission. Ask an owner or admin of the organization.`,
        { required_scope: scope },
      );
    }
    return null;
  }
  if (auth === "session") throw new SvcError("unauthenticated", "Sign in to the dashboard to use this operation.");
  if (auth === "none") return null;
  const key = await authenticate(call.request, auth, call.runtime, call.now);
  enforceKeyOrigin(key, call.request, call.headers);
  const hit = await call.runtime.ports.limiter.hit("request", key.key.id, key.plan.requestsPerWindow, key.plan.windowSeconds);
  Object.assign(call.headers, rateLimitHeaders(hit));
  if (!hit.allowed) throw limitExceeded("rate_limit", hit);
  assertKeyScope(key, scope);
  return key;
}

export function assertKeyScope(key: AuthenticatedKey, scope: Scope | DashboardScope | null): void {
  if (scope && !hasScope(key.key.scopes, scope)) {
    throw new SvcError("insufficient_scope", `This API key lacks the '${scope}' scope.`, { required_scope: scope });
  }
}

function rateLimitHeaders(hit: HitResult): Record<string, string> {
  return {
    "RateLimit-Limit": String(hit.limit),
    "RateLimit-Remaining": String(hit.remaining),
    "RateLimit-Reset": String(Math.ceil(hit.resetAt.getTime() / 1000)),
  };
}

/** 429 with the spec's body and headers; X-Svc-Limit-Type names the limit that tripped. */
function limitExceeded(code: "rate_limit" | "monthly_quota_exceeded", hit: HitResult): SvcError {
  const retryAfter = Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000));
  const message =
    code === "rate_limit"
      ? `Rate limit of ${hit.limit} requests per window exceeded for this API key. Retry after ${retryAfter} s.`
      : `Monthly quota of ${hit.limit} requests exceeded for this API key. It resets at ${hit.resetAt.toISOString()}.`;
  return new SvcError(
    code,
    message,
    { limit: hit.limit, remaining: 0, reset_at: hit.resetAt.toISOString() },
    {
      ...rateLimitHeaders({ ...hit, remaining: 0 }),
      "Retry-After": String(retryAfter),
      "X-Svc-Limit-Type": code === "rate_limit" ? "rate_limit" : "monthly_quota",
    },
  );
}
