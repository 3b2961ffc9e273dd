import type { Runtime } from "@/lib/server/runtime";
import { SvcError } from "@/lib/errors";
import { findKeyByValue, keyKindOf, touchKey, type AuthenticatedKey } from "@/lib/domain/keys";

/** "session": dashboard-only operations, served only to a signed-in operator (lib/dashboard). */
export type AuthMode = "secret" | "secret_or_publishable" | "session" | "none";

/**
 * Resolves the request's key. Secret keys come as `Authorization: Bearer`; publishable keys only in
 * `x-svc-publishable-key` and only on routes that accept them (docs/spec/decisions.md "Keys and scopes").
 */
export async function authenticate(request: Request, mode: "secret" | "secret_or_publishable", runtime: Runtime, now: Date): Promise<AuthenticatedKey> {
  const authorization = request.headers.get("authorization");
  const publishable = request.headers.get("x-svc-publishable-key");
  let value: string | null = null;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new SvcError("invalid_api_key", "The Authorization header must be 'Bearer <API key>'.");
    value = match[1]!;
    if (keyKindOf(value) === "publishable") {
      throw new SvcError(
        "invalid_api_key",
        "Publishable keys (svc_pub_) are not accepted as Bearer tokens: send them in x-svc-publishable-key, on POST /registration-intents only.",
      );
    }
  } else if (publishable) {
    if (mode !== "secret_or_publishable") {
      throw new SvcError("invalid_api_key", "Publishable keys can only mint registration intents. Use a secret key (svc_live_) as a Bearer token here.");
    }
    if (keyKindOf(publishable) !== "publishable") throw new SvcError("invalid_api_key", "x-svc-publishable-key must hold a publishable key (svc_pub_...).");
    value = publishable;
  }
  if (!value) throw new SvcError("missing_api_key", "No API key. Send 'Authorization: Bearer svc_live_...'.");
  const found = await findKeyByValue(runtime.database.db, value, runtime.ports.clock.monotonicMs());
  if (!found) throw new SvcError("invalid_api_key", "This API key is not valid: it is unknown or has been revoked.");
  const touched = touchKey(runtime.database.db, found.key.id, now);
  if (touched) await touched;
  return found;
}
