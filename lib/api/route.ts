import { ZodObject, type ZodType, type z } from "zod";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { API_VERSION } from "@/lib/config";
import type { Ctx } from "@/lib/domain/context";
import { hasScope, type Scope } from "@/lib/shared/scopes";
import type { DashboardScope } from "@/lib/domain/members/roles";
import type { OperatorPrincipal } from "./principal";
import { quotaPeriod, startOfNextMonth } from "@/lib/domain/plans";
import type { AuthenticatedKey } from "@/lib/domain/keys";
import { servicesOf, type Runtime } from "@/lib/server/runtime";
import type { HitResult } from "@/lib/ports/limiter";
import { authenticate, type AuthMode } from "./auth";
import { corsHeadersFor, enforceKeyOrigin } from "./cors";
import { clientIp } from "./client-ip";
import { MAX_JSON_BODY_BYTES, assertStorable, parseJsonText, readBodyBytes } from "./request-input";
import { errorResponse, handlerHeaders, json } from "./respond";
import { claimIdempotencyKey, completeIdempotencyKey, idempotencyKeyOf, releaseIdempotencyKey, requestHashOf } from "./idempotency";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

type Infer<T> = T extends ZodType ? z.output<T> : undefined;

export interface HandlerInput<P, Q, B> {
  ctx: Ctx;
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
}

export interface RouteDefinition<P extends ZodType | undefined, Q extends ZodType | undefined, B extends ZodType | undefined, R extends ZodType> {
  method: HttpMethod;
  /** OpenAPI-style path under /api/v1, e.g. "/projects/{id}". */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Authentication; default "secret". "none" serves public documents only; "session" the dashboard only. */
  auth?: AuthMode;
  /** Required scope; null = any valid key. Dashboard scopes only ever belong to operators' roles. */
  scope: Scope | DashboardScope | null;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** POSTs accept an Idempotency-Key by default; "required" makes it mandatory (broadcast writes). */
  idempotency?: "optional" | "required" | "off";
  /** The body size cap; default MAX_JSON_BODY_BYTES (1 MiB). */
  maxBodyBytes?: number;
  /** false: an operation about the calling API key itself, which the dashboard (an operator, no key) does not serve. */
  servedToOperators?: boolean;
  handler: (input: HandlerInput<Infer<P>, Infer<Q>, Infer<B>>) => Promise<z.input<R>>;
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
>(def: RouteDefinition<P, Q, B, R>): Route {
  const auth = def.auth ?? "secret";
  const idempotency = def.idempotency ?? (def.method === "POST" ? "optional" : "off");
  const validateResponses = process.env.NODE_ENV === "test" || process.env.SVC_VALIDATE_RESPONSES === "true";

  async function run(request: Request, pathParams: Record<string, string>, runtime: Runtime, operator?: OperatorPrincipal): Promise<Response> {
    const requestId = newId("request");
    const call: Call = { request, pathParams, runtime, operator, now: runtime.ports.clock.now(), headers: handlerHeaders(requestId) };
    // Browser-callable operations: every answer is readable by the calling page unless its key refuses the origin (lib/api/cors.ts).
    if (auth === "secret_or_publishable") Object.assign(call.headers, corsHeadersFor(request));
    let claimId: string | null = null;
    try {
      const key = await admit(def.scope, auth, call);
      const { params, query, body, rawBody } = await readInput(def, idempotency, call);
      const claimed = await claimIdempotency(def, idempotency, call, rawBody, key);
      if (claimed.kind === "replay") return claimed.response;
      claimId = claimed.claimId;
      if (key) await countQuota(key, call);
      const ctx = ctxOf(call, key);
      const result = await def.handler({ ctx, runtime, params, query, body, request, idempotencyKey: claimed.idempotencyKey, via: "http" } as HandlerInput<
        Infer<P>,
        Infer<Q>,
        Infer<B>
      >);
      if (validateResponses) assertResponseShape(def, result);
      if (claimId) await completeIdempotencyKey(runtime.database.db, claimId, 200, result);
      return json(200, result, call.headers);
    } catch (error) {
      if (claimId) await releaseIdempotencyKey(runtime.database.db, claimId).catch(() => {});
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
    const ctx = ctxOf(call, key);
    const result = await def.handler({ ctx, runtime, params, query, body, request, idempotencyKey: input.idempotencyKey, via: "mcp" } as HandlerInput<
      Infer<P>,
      Infer<Q>,
      Infer<B>
    >);
    if (validateResponses) assertResponseShape(def, result);
    return result;
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
    run,
    invoke,
  };
}

/** One point of the key's monthly quota, taken after the request is admitted and parsed (429 monthly_quota_exceeded when spent). */
export async function countQuota(key: AuthenticatedKey, call: Pick<Call, "runtime" | "now">): Promise<void> {
  const quota = await call.runtime.ports.limiter.hit("quota", `${key.key.id}:${quotaPeriod(call.now)}`, key.plan.monthlyRequests, 32 * 86_400);
  if (!quota.allowed) throw limitExceeded("monthly_quota_exceeded", { ...quota, resetAt: startOfNextMonth(call.now) });
}

/** One request on its way through defineRoute's steps; `headers` collects the response headers as they are decided. */
export interface Call {
  request: Request;
  pathParams: Record<string, string>;
  runtime: Runtime;
  operator: OperatorPrincipal | undefined;
  now: Date;
  headers: Record<string, string>;
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

function assertKeyScope(key: AuthenticatedKey, scope: Scope | DashboardScope | null): void {
  if (scope && !hasScope(key.key.scopes, scope)) {
    throw new SvcError("insufficient_scope", `This API key lacks the '${scope}' scope.`, { required_scope: scope });
  }
}

/** Path, query and body, each checked storable and parsed by the route's schema; the raw body too (idempotency hashes it). */
async function readInput(
  def: { params?: ZodType | undefined; query?: ZodType | undefined; body?: ZodType | undefined; maxBodyBytes?: number | undefined },
  idempotency: "optional" | "required" | "off",
  call: Call,
) {
  assertStorable(call.pathParams, "path");
  const params = parse(def.params, call.pathParams, "path");
  const rawQuery = queryObject(new URL(call.request.url).searchParams);
  assertStorable(rawQuery, "query");
  const query = parse(def.query, rawQuery, "query");
  const rawBody = def.body || idempotency !== "off" ? await readJson(call.request, !def.body, def.maxBodyBytes) : undefined;
  const body = parse(def.body, idempotency !== "off" ? withoutIdempotencyKey(def.body, rawBody) : rawBody, "body");
  return { params, query, body, rawBody };
}

type Claimed = { kind: "replay"; response: Response } | { kind: "go"; idempotencyKey: string | null; claimId: string | null };

/** The idempotency step: no key, a claim to complete after the verb, or the stored answer of an earlier request (a replay). */
async function claimIdempotency(
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

/** The ports and settings come from the runtime (the composition root), the tenant from the key or operator. */
function ctxOf(call: Call, key: AuthenticatedKey | null): Ctx {
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
    };
  }
  // auth "none": no tenant, so no ctx; those handlers use `runtime` (HandlerInput).
  return null as unknown as Ctx;
}

function rateLimitHeaders(hit: HitResult): Record<string, string> {
  return {
    "RateLimit-Limit": String(hit.limit),
    "RateLimit-Remaining": String(hit.remaining),
    "RateLimit-Reset": String(Math.ceil(hit.resetAt.getTime() / 1000)),
  };
}

/** 429 with the spec's body and headers; X-Svc-Limit-Type names the limit that tripped. */
export function limitExceeded(code: "rate_limit" | "monthly_quota_exceeded", hit: HitResult): SvcError {
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's zod schemas type its handler (defineRoute); parse only hands the value on
export function parse(schema: ZodType | undefined, value: unknown, where: "path" | "query" | "body"): any {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // Null prototype: request keys such as `__proto__` or `toString` become fields like any other.
  const issues: Record<string, string[]> = Object.create(null);
  for (const issue of result.error.issues) {
    const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys : [null];
    for (const extra of unknownKeys) {
      const segments = [...issue.path, ...(extra === null ? [] : [extra])].map(String);
      const field = segments.length ? segments.join(".") : where;
      (issues[field] ??= []).push(extra === null ? issue.message : "Unknown or read-only field.");
    }
  }
  const fields = Object.keys(issues).join(", ");
  throw new SvcError("invalid_request", `Invalid ${where === "path" ? "path parameter" : where}: ${fields}.`, { issues });
}

/**
 * docs/spec/decisions.md "Idempotency": any idempotent write may carry `idempotency_key` in its body instead of the
 * header. The wrapper reads it (idempotencyKeyOf), so a strict body schema that does not declare the
 * field must not refuse it as an unknown key.
 */
function withoutIdempotencyKey(schema: ZodType | undefined, raw: unknown): unknown {
  if (!schema || !raw || typeof raw !== "object" || Array.isArray(raw) || !("idempotency_key" in raw)) return raw;
  if (schema instanceof ZodObject && "idempotency_key" in schema.shape) return raw;
  const { idempotency_key: _key, ...rest } = raw as Record<string, unknown>;
  return rest;
}

/** Reads a JSON body through the request limits (lib/api/request-input.ts): size, depth, storable strings. */
export async function readJson(request: Request, optional: boolean, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const bytes = await readBodyBytes(request, maxBytes);
  return parseJsonText(new TextDecoder("utf-8").decode(bytes), optional);
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  // Null prototype: a query key like `__proto__` or `constructor` is just a key here.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

function canonicalPath(pathParams: Record<string, string>, template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name] ?? "");
}

function assertResponseShape(def: { operationId: string; response: ZodType }, result: unknown) {
  const checked = def.response.safeParse(result);
  if (!checked.success) {
    throw new Error(`Response of ${def.operationId} does not match its schema: ${JSON.stringify(checked.error.issues)}`);
  }
}
