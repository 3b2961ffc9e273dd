import type { Ctx } from "@/lib/domain/context";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import { clientIp } from "./client-ip";
import type { Call } from "./call";

/**
 * The ports and settings come from the runtime (the composition root), the tenant from the key or operator.
 * `ip` is worked out when first read (the audit log reads it; most requests never do).
 */
export function ctxOf(call: Call, key: AuthenticatedKey | null): Ctx | null {
  const { operator, now, runtime, request } = call;
  let ip: string | null | undefined;
  const ipOf = () => (ip === undefined ? (ip = clientIp(request, runtime.settings.trustedProxies)) : ip);
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
      get ip() {
        return ipOf();
      },
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
      get ip() {
        return ipOf();
      },
      audited: [],
    };
  }
  // auth "none" with no operator: no tenant, so no ctx; HandlerInput types those handlers' ctx as null.
  return null;
}
