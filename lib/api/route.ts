import type { ZodType, z } from "zod";
import { newId } from "@/lib/ids";
import type { AnswerRecord, Ctx, FoldedClaim } from "@/lib/domain/context";
import type { Scope } from "@/lib/shared/scopes";
import type { DashboardScope } from "@/lib/domain/members/roles";
import type { OperatorPrincipal } from "./principal";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import type { Runtime } from "@/lib/server/runtime";
import type { AuthMode } from "./auth";
import { corsHeadersFor } from "./cors";
import { assertStorable } from "./request-input";
import { errorResponse, handlerHeaders, json, jsonText } from "./respond";
import { completeIdempotencyKey, releaseIdempotencyKey } from "./idempotency";
import type { Call } from "./call";
import { admit, assertKeyScope } from "./admission";
import { parse, readInput, withoutIdempotencyKey } from "./route-input";
import { claimThenVerb, type ClaimState } from "./idempotency-claim";
import { ctxOf } from "./route-ctx";
import { assertAuditDeclaration, assertRecordedDeclared, type AuditDeclaration } from "./audit-declaration";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

type Infer<T> = T extends ZodType ? z.output<T> : undefined;

/** A tenant-less route (auth "none") runs before any project exists, so its handler gets no ctx. */
type CtxFor<A extends AuthMode> = A extends "none" ? null : Ctx;

interface HandlerInput<P, Q, B, C extends Ctx | null = Ctx> {
  ctx: C;
  /**
   * The composition root, for the auth "none" routes that run before any project (the dashboard's
   * account routes: set-up, invitations): ctx is not built for them. Project verbs use ctx.ports and ctx.settings.
   */
  runtime: Runtime;
  params: P;
  query: Q;
  body: B;
  request: Request;
  /** The idempotency key in force for this request, if any (header or body). */
  idempotencyKey: string | null;
  /** How the operation was reached: an HTTP request (`run`), or an MCP tools/call (`invoke`). */
  via: "http" | "mcp";
  /**
   * The request's idempotency record when it has one (HTTP with a key): a handler whose verb's return
   * is the answer may let the verb store it with its own write (AnswerRecord, lib/domain/context.ts).
   */
  answerRecord: AnswerRecord | null;
  /** The request's Idempotency-Key claim for the verb's first read, on a route with `foldClaim` (FoldedClaim). */
  claim: FoldedClaim | null;
}

export interface RouteDefinition<
  P extends ZodType | undefined,
  Q extends ZodType | undefined,
  B extends ZodType | undefined,
  R extends ZodType,
  A extends AuthMode = "secret",
> {
  method: HttpMethod;
  /** OpenAPI-style path under /api/v1, e.g. "/projects/{id}". */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Authentication; default "secret". "none" serves public documents only; "session" the dashboard only. */
  auth?: A;
  /** Required scope; null = any valid key. Dashboard scopes only ever belong to operators' roles. */
  scope: Scope | DashboardScope | null;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** POSTs accept an Idempotency-Key by default; "required" makes it mandatory (broadcast writes). */
  idempotency?: "optional" | "required" | "off";
  /**
   * The verb takes the Idempotency-Key claim in its first read (HandlerInput.claim, FoldedClaim) instead
   * of the wrapper's own statement before it: POST /messages, one round trip fewer per send.
   */
  foldClaim?: boolean;
  /** The body size cap; default MAX_JSON_BODY_BYTES (1 MiB). */
  maxBodyBytes?: number;
  /** false: an operation about the calling API key itself, which the dashboard (an operator, no key) does not serve. */
  servedToOperators?: boolean;
  /** Every write: the audit actions it may record, or `{ exempt: reason }` (lib/api/audit-declaration.ts). A GET has none. */
  audit?: AuditDeclaration;
  handler: (input: HandlerInput<Infer<P>, Infer<Q>, Infer<B>, CtxFor<A>>) => Promise<z.input<R>>;
}

export interface Route {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthMode;
  scope: Scope | DashboardScope | null;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  response: ZodType;
  idempotency: "optional" | "required" | "off";
  servedToOperators: boolean;
  /** The audit actions it may record, or why none; null for a GET. */
  audit: AuditDeclaration | null;
  /** `operator` set: a signed-in operator acting in one project (the dashboard) instead of an API key. */
  run(request: Request, pathParams: Record<string, string>, runtime: Runtime, operator?: OperatorPrincipal): Promise<Response>;
  /**
   * The verb for a key already admitted and counted by the caller (the MCP server's tools/call,
   * lib/api/mcp): scope → parse → verb → response check, as `run` does, but no HTTP answer, no
   * idempotency claim (the verbs that take a key dedupe on it themselves) and no second count.
   */
  invoke(key: AuthenticatedKey, input: OperationInput, request: Request, runtime: Runtime): Promise<unknown>;
}

/** An operation's raw input outside HTTP: path and query as the URL would carry them, the JSON body. */
export interface OperationInput {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  idempotencyKey: string | null;
}

/**
 * The single route wrapper every /api/v1 handler goes through, in this order:
 * version → key → per-key rate limit → scope → parse → idempotency → monthly quota → verb → response.
 * An operator (dashboard) replaces the key: their role's scopes are checked the same way, and the
 * per-key rate limit and monthly quota, which belong to API keys, do not apply.
 */
export function defineRoute<
  P extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  R extends ZodType = ZodType,
  A extends AuthMode = "secret",
>(def: RouteDefinition<P, Q, B, R, A>): Route {
  const auth: AuthMode = def.auth ?? "secret";
  const idempotency = def.idempotency ?? (def.method === "POST" ? "optional" : "off");
  const validateResponses = process.env.NODE_ENV === "test" || process.env.SVC_VALIDATE_RESPONSES === "true";
  const audit = assertAuditDeclaration(def, def.audit);

  /** The verb, and under tests the check that its answer matches its schema and what it recorded is what the route declares. */
  async function handle(ctx: Ctx | null, input: Omit<HandlerInput<unknown, unknown, unknown, Ctx | null>, "ctx">) {
    const result = await def.handler({ ctx, ...input } as HandlerInput<Infer<P>, Infer<Q>, Infer<B>, CtxFor<A>>);
    if (validateResponses) assertOutcome(def, result, audit, ctx);
    return result;
  }

  async function run(request: Request, pathParams: Record<string, string>, runtime: Runtime, operator?: OperatorPrincipal): Promise<Response> {
    const requestId = newId("request");
    const call: Call = { request, pathParams, runtime, operator, now: runtime.ports.clock.now(), headers: handlerHeaders(requestId) };
    // Browser-callable operations: every answer is readable by the calling page unless its key refuses the origin (lib/api/cors.ts).
    if (auth === "secret_or_publishable") Object.assign(call.headers, corsHeadersFor(request));
    // The claim to complete or release, and the verb's record of its answer, as the steps decide them.
    const claim: ClaimState = { claimId: null, answerRecord: null };
    try {
      const key = await admit(def.scope, auth, call);
      const { params, query, body, rawBody } = await readInput(def, idempotency, call);
      const verb = (idempotencyKey: string | null, folded: FoldedClaim | null) =>
        handle(ctxOf(call, key), { runtime, params, query, body, request, idempotencyKey, via: "http", answerRecord: claim.answerRecord, claim: folded });
      const outcome = await claimThenVerb(def, idempotency, call, rawBody, key, claim, verb);
      if ("replay" in outcome) return outcome.replay;
      const { answerRecord } = claim;
      // Stored with the verb's own write: the claim is complete, nothing to store or release.
      if (answerRecord?.stored) claim.claimId = null;
      if (claim.claimId) await completeIdempotencyKey(runtime.database.db, claim.claimId, 200, outcome.result);
      return answerRecord?.stored && answerRecord.text !== null ? jsonText(200, answerRecord.text, call.headers) : json(200, outcome.result, call.headers);
    } catch (error) {
      // A claim the verb completed with its write stays: the message it answers for exists.
      if (claim.claimId && !claim.answerRecord?.stored) await releaseIdempotencyKey(runtime.database.db, claim.claimId).catch(() => {});
      return errorResponse(error, requestId, call.headers);
    }
  }

  async function invoke(key: AuthenticatedKey, input: OperationInput, request: Request, runtime: Runtime): Promise<unknown> {
    assertKeyScope(key, def.scope);
    assertStorable(input.params, "path");
    assertStorable(input.query, "query");
    assertStorable(input.body, "body");
    const params = parse(def.params, input.params, "path");
    const query = parse(def.query, input.query, "query");
    const body = parse(def.body, withoutIdempotencyKey(def.body, input.body), "body");
    const call: Call = { request, pathParams: input.params, runtime, operator: undefined, now: runtime.ports.clock.now(), headers: {} };
    return handle(ctxOf(call, key), {
      runtime,
      params,
      query,
      body,
      request,
      idempotencyKey: input.idempotencyKey,
      via: "mcp",
      answerRecord: null,
      claim: null,
    });
  }

  return {
    method: def.method,
    path: def.path,
    operationId: def.operationId,
    summary: def.summary,
    description: def.description,
    tag: def.tag,
    auth,
    scope: def.scope,
    params: def.params,
    query: def.query,
    body: def.body,
    response: def.response,
    idempotency,
    servedToOperators: def.servedToOperators ?? true,
    audit,
    run,
    invoke,
  };
}

/** Under tests: the recorded audit actions are declared ones (lib/api/audit-declaration.ts) and the answer matches its schema. */
function assertOutcome(def: { operationId: string; response: ZodType }, result: unknown, audit: AuditDeclaration | null, ctx: Ctx | null) {
  if (ctx?.audited) assertRecordedDeclared(def.operationId, audit, ctx.audited);
  const checked = def.response.safeParse(result);
  if (!checked.success) {
    throw new Error(`Response of ${def.operationId} does not match its schema: ${JSON.stringify(checked.error.issues)}`);
  }
}
