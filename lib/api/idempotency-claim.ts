// The wrapper's idempotency step: claim the key before the verb (or in its first read: foldClaim), or answer with the stored replay.
import { SvcError } from "@/lib/errors";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import { json } from "./respond";
import { newId } from "@/lib/ids";
import type { FoldedClaim } from "@/lib/domain/context";
import { answerRecordOf, claimIdempotencyKey, claimInsert, claimValues, idempotencyKeyOf, requestHashOf, type ClaimAnswerRecord } from "./idempotency";
import { countQuota } from "./admission";
import type { HttpMethod } from "./route";
import type { Call } from "./call";

type Claimed = { kind: "replay"; response: Response } | { kind: "go"; idempotencyKey: string | null; claimId: string | null };

/** What claimIdempotency needs to know first: the key in force and where it applies (null: no key, nothing to claim). */
function keyedScope(
  def: { method: HttpMethod; path: string },
  idempotency: "optional" | "required" | "off",
  call: Call,
  rawBody: unknown,
  key: AuthenticatedKey | null,
) {
  const tenant = key ?? call.operator ?? null;
  if (idempotency === "off" || !tenant) return null;
  const idempotencyKey = idempotencyKeyOf(call.request.headers.get("idempotency-key"), rawBody);
  if (!idempotencyKey && idempotency === "required") {
    throw new SvcError("idempotency_key_required", "This operation needs an Idempotency-Key header (1 to 200 characters).");
  }
  if (!idempotencyKey) return null;
  return { idempotencyKey, scope: { projectId: tenant.project.id, method: def.method, path: canonicalPath(call.pathParams, def.path), key: idempotencyKey } };
}

/** The folded claim's placeholders are named apart from the read's own. */
const FOLDED_PREFIX = "claim_";
/** What a FoldedClaim's notTaken() throws: the route wrapper catches it and claims as it does without the fold. */
const CLAIM_NOT_TAKEN = Symbol("claim not taken");

/**
 * The claim for a verb to take in its first read (a route with `foldClaim`): null when the request
 * carries no key. `onTaken` runs when the read took it (the wrapper records it and counts the quota).
 */
function foldedClaim(
  def: { method: HttpMethod; path: string },
  idempotency: "optional" | "required" | "off",
  call: Call,
  rawBody: unknown,
  key: AuthenticatedKey | null,
  onTaken: (claimId: string) => Promise<void>,
): { claimId: string; idempotencyKey: string; claim: FoldedClaim } | null {
  const keyed = keyedScope(def, idempotency, call, rawBody, key);
  if (!keyed) return null;
  const claimId = newId("idempotencyKey");
  const claim: FoldedClaim = {
    insert: (db) => claimInsert(db, FOLDED_PREFIX),
    values: claimValues(FOLDED_PREFIX, keyed.scope, claimId, requestHashOf(rawBody), call.now),
    taken: () => onTaken(claimId),
    notTaken: () => {
      throw CLAIM_NOT_TAKEN;
    },
  };
  return { claimId, idempotencyKey: keyed.idempotencyKey, claim };
}

/** The idempotency step: no key, a claim to complete after the verb, or the stored answer of an earlier request (a replay). */
async function claimIdempotency(
  def: { method: HttpMethod; path: string },
  idempotency: "optional" | "required" | "off",
  call: Call,
  rawBody: unknown,
  key: AuthenticatedKey | null,
): Promise<Claimed> {
  const keyed = keyedScope(def, idempotency, call, rawBody, key);
  if (!keyed) return { kind: "go", idempotencyKey: null, claimId: null };
  const { idempotencyKey, scope } = keyed;
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

export interface ClaimState {
  claimId: string | null;
  answerRecord: ClaimAnswerRecord | null;
}

/**
 * The idempotency step, the monthly quota and the verb. With `foldClaim` and a key, the verb's first
 * read takes the claim (FoldedClaim), then the quota is counted; when the read did not take it (a
 * replay, a request in progress, a reuse) or there is no fold, the wrapper claims first, as always.
 * `state` holds the claim in force for the caller to complete or release.
 */
export async function claimThenVerb(
  def: { method: HttpMethod; path: string; foldClaim?: boolean },
  idempotency: "optional" | "required" | "off",
  call: Call,
  rawBody: unknown,
  key: AuthenticatedKey | null,
  state: ClaimState,
  verb: (idempotencyKey: string | null, folded: FoldedClaim | null) => Promise<unknown>,
): Promise<{ replay: Response } | { result: unknown }> {
  const folded = def.foldClaim
    ? foldedClaim(def, idempotency, call, rawBody, key, async (taken) => {
        state.claimId = taken;
        if (key) await countQuota(key, call);
      })
    : null;
  if (folded) {
    state.answerRecord = answerRecordOf(folded.claimId);
    const result = await verb(folded.idempotencyKey, folded.claim).catch((error: unknown) => {
      if (error === CLAIM_NOT_TAKEN) return CLAIM_NOT_TAKEN;
      throw error;
    });
    if (result !== CLAIM_NOT_TAKEN) return { result };
    state.answerRecord = null;
  }
  const claimed = await claimIdempotency(def, idempotency, call, rawBody, key);
  if (claimed.kind === "replay") return { replay: claimed.response };
  state.claimId = claimed.claimId;
  if (key) await countQuota(key, call);
  state.answerRecord = state.claimId ? answerRecordOf(state.claimId) : null;
  return { result: await verb(claimed.idempotencyKey, null) };
}
