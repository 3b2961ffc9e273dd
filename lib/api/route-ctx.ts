import type { Ctx } from "@/lib/domain/context";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import { servicesOf } from "@/lib/server/runtime";
import { clientIp } from "./client-ip";
import type { Call } from "./call";

/** The ports and settings come from the runtime (the composition root), the tenant from the key or operator. */
export function ctxOf(call: Call, key: AuthenticatedKey | null): Ctx | null {
  const services = servicesOf(call.runtime);
  const { operator, now } = call;
  if (operator)
    return {
      ...services,
      org: operator.org,
      project: operator.project,
      plan: operator.plan,
      actor: { type: "user", id: operator.user.id, role: operator.role },
      now,
      ip: clientIp(call.request, call.runtime.settings.trustedProxies),
      audited: [],
    };
  if (key) {
    return {
      ...services,
      org: key.org,
      project: key.project,
      plan: key.plan,
      actor: { type: "api_key", id: key.key.id, name: key.key.name, prefix: key.key.prefix, display: key.key.display, scopes: key.key.scopes },
      now,
      ip: clientIp(call.request, call.runtime.settings.trustedProxies),
      audited: [],
    };
  }
  // auth "none" with no operator: no tenant, so no ctx; HandlerInput types those handlers' ctx as null.
  return null;
}
