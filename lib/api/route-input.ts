// Reading a request's path, query and body into the route's schemas, with the spec's invalid_request shape.
import { ZodObject, type ZodType } from "zod";
import { SvcError } from "@/lib/errors";
import { MAX_JSON_BODY_BYTES, assertStorable, parseJsonText, readBodyBytes } from "./request-input";
import type { Call } from "./call";

/** Path, query and body, each checked storable and parsed by the route's schema; the raw body too (idempotency hashes it). */
export async function readInput(
  def: { params?: ZodType | undefined; query?: ZodType | undefined; body?: ZodType | undefined; maxBodyBytes?: number | undefined },
  idempotency: "optional" | "required" | "off",
  call: Call,
) {
  assertStorable(call.pathParams, "path");
  const params = parse(def.params, call.pathParams, "path");
  // Most requests carry no query: the URL is parsed only when one is there.
  const url = call.request.url;
  const rawQuery = url.includes("?") ? queryObject(new URL(url).searchParams) : (Object.create(null) as Record<string, string | string[]>);
  assertStorable(rawQuery, "query");
  const query = parse(def.query, rawQuery, "query");
  const rawBody = def.body || idempotency !== "off" ? await readJson(call.request, !def.body, def.maxBodyBytes) : undefined;
  const body = parse(def.body, idempotency !== "off" ? withoutIdempotencyKey(def.body, rawBody) : rawBody, "body");
  return { params, query, body, rawBody };
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
export function withoutIdempotencyKey(schema: ZodType | undefined, raw: unknown): unknown {
  if (!schema || !raw || typeof raw !== "object" || Array.isArray(raw) || !("idempotency_key" in raw)) return raw;
  if (schema instanceof ZodObject && "idempotency_key" in schema.shape) return raw;
  const { idempotency_key: _key, ...rest } = raw as Record<string, unknown>;
  return rest;
}

/** Reads a JSON body through the request limits (lib/api/request-input.ts): size, depth, storable strings. */
export async function readJson(request: Request, optional: boolean, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const bytes = await readBodyBytes(request, maxBytes);
  return parseJsonText(UTF8.decode(bytes), optional);
}

/** decode() without `stream` keeps no state between calls: one decoder serves every request. */
const UTF8 = new TextDecoder("utf-8");

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  // Null prototype: a query key like `__proto__` or `constructor` is just a key here.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0]! : values;
  }
  return out;
}
