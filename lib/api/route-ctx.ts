import type { Ctx } from "@/lib/domain/context";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import { clientIp } from "./client-ip";
import type { Call } from "./call";

/**
 * The ports and settings come from the runtime (the composition root), the tenant from the key or operator.
 * `ip` is a plain value, worked out here: a getter in this literal made every ctx a dictionary-mode
 * object (V8 gives an object literal with a per-call accessor no shared shape), so every `ctx.db`
 * and `ctx.project` a verb read was a hash lookup (README "Performance", issue 35).
 */
export function ctxOf(call: Call, key: AuthenticatedKey | null): Ctx | null {
  const { operator, now, runtime, request } = call;
  if (operator)
    return {
      db: runtime.database.db,
      ports: runtime.ports,
      settings: runtime.settings,
      org: operator.org,
      project: operator.project,
      plan: operator.plan,
      actor: { type: "user", id: operator.user.id, role: operator.role },
      now,
      ip: clientIp(request, runtime.settings.trustedProxies),
      audited: [],
    };
  if (key) {
    return {
      db: runtime.database.db,
      ports: runtime.ports,
      settings: runtime.settings,
      org: key.org,
      project: key.project,
      plan: key.plan,
      actor: { type: "api_key", id: key.key.id, name: key.key.name, prefix: key.key.prefix, display: key.key.display, scopes: key.key.scopes },
      now,
      ip: clientIp(request, runtime.settings.trustedProxies),
      audited: [],
    };
  }
  // auth "none" with no operator: no tenant, so no ctx; HandlerInput types those handlers' ctx as null.
  return null;
}
