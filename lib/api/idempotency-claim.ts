// The wrapper's idempotency step: claim the key before the verb, or answer with the stored replay.
import { SvcError } from "@/lib/errors";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import { json } from "./respond";
import { claimIdempotencyKey, idempotencyKeyOf, requestHashOf } from "./idempotency";
import type { HttpMethod } from "./route";
import type { Call } from "./call";

type Claimed = { kind: "replay"; response: Response } | { kind: "go"; idempotencyKey: string | null; claimId: string | null };

/** The idempotency step: no key, a claim to complete after the verb, or the stored answer of an earlier request (a replay). */
export async function claimIdempotency(
  def: { method: HttpMethod; path: string },
  idempotency: "optional" | "required" | "off",
  call: Call,
  rawBody: unknown,
  key: AuthenticatedKey | null,
): Promise<Claimed> {
  const tenant = key ?? call.operator ?? null;
  if (idempotency === "off" || !tenant) return { kind: "go", idempotencyKey: null, claimId: null };
  const idempotencyKey = idempotencyKeyOf(call.request.headers.get("idempotency-key"), rawBody);
  if (!idempotencyKey && idempotency === "required") {
    throw new SvcError("idempotency_key_required", "This operation needs an Idempotency-Key header (1 to 200 characters).");
  }
  if (!idempotencyKey) return { kind: "go", idempotencyKey: null, claimId: null };
  const scope = { projectId: tenant.project.id, method: def.method, path: canonicalPath(call.pathParams, def.path), key: idempotencyKey };
  const claim = await claimIdempotencyKey(call.runtime.database.db, scope, requestHashOf(rawBody), call.now);
  if (claim.kind !== "replay") return { kind: "go", idempotencyKey, claimId: claim.id };
  const headers = call.headers;
  if (key) {
    // docs/spec/decisions.md: a replay is not counted again, so its request-window point is given back.
    await call.runtime.ports.limiter.refund("request", key.key.id, key.plan.requestsPerWindow, key.plan.windowSeconds).catch(() => {});
    headers["RateLimit-Remaining"] = String(Math.min(key.plan.requestsPerWindow, Number(headers["RateLimit-Remaining"] ?? 0) + 1));
  }
  return { kind: "replay", response: json(claim.status, claim.body, { ...headers, "Idempotent-Replayed": "true" }) };
}

function canonicalPath(pathParams: Record<string, string>, template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name] ?? "");
}
