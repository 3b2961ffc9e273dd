import { API_VERSION } from "@/lib/config";
import type { Ctx } from "@/lib/domain/context";
import { quotaPeriod } from "@/lib/domain/plans";

export function describeIdentity(ctx: Ctx) {
  if (ctx.actor.type !== "api_key") throw new Error("describeIdentity needs an API key actor");
  return {
    object: "identity" as const,
    organization: { id: ctx.org.id, name: ctx.org.name },
    project: { id: ctx.project.id, name: ctx.project.name },
    api_key: { id: ctx.actor.id, name: ctx.actor.name, prefix: ctx.actor.prefix, display: ctx.actor.display, scopes: ctx.actor.scopes },
    plan: ctx.plan.id,
    api_version: API_VERSION,
  };
}

export function describeLimits(ctx: Ctx) {
  return {
    object: "public_api_limits" as const,
    rate_limit: { requests: ctx.plan.requestsPerWindow, window_seconds: ctx.plan.windowSeconds, scope: "api_key" as const },
    monthly_quota: { requests: ctx.plan.monthlyRequests, scope: "api_key" as const, period: quotaPeriod(ctx.now) },
  };
}
