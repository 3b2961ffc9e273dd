import { fbtraceId } from "@/lib/simulator/ids";

/** Response helpers shared by the simulator routes. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
}

export { isRecord } from "@/lib/json";

/** `Authorization: Bearer <token>` or `?access_token=` (both are accepted by the provider); "" when absent. */
export function bearerToken(request: Request): string {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(.*)$/i.exec(header.trim());
  if (match?.[1]?.trim()) return match[1].trim();
  return new URL(request.url).searchParams.get("access_token")?.trim() ?? "";
}

export async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    const text = await request.text();
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export interface GraphErrorSpec {
  status: number;
  code: number;
  message: string;
  type?: string;
  subcode?: number;
  details?: string;
  /** Cloud API errors carry error_data.messaging_product; Send API errors do not. */
  whatsapp?: boolean;
}

/** A Graph API error answer: `{error:{message, type, code, error_subcode?, error_data?, fbtrace_id}}`. */
export function graphError(spec: GraphErrorSpec): Response {
  const error: Record<string, unknown> = {
    message: spec.message,
    type: spec.type ?? "OAuthException",
    code: spec.code,
  };
  if (spec.subcode !== undefined) error.error_subcode = spec.subcode;
  if (spec.details !== undefined) {
    error.error_data = spec.whatsapp ? { messaging_product: "whatsapp", details: spec.details } : { details: spec.details };
  }
  error.fbtrace_id = fbtraceId();
  const headers: Record<string, string> = {};
  if (spec.code === 190) headers["WWW-Authenticate"] = `OAuth "Facebook Platform" "invalid_token" "${spec.message.replace(/"/g, "'")}"`;
  return json(spec.status, { error }, headers);
}

export function invalidParameter(details: string, whatsapp: boolean): Response {
  return graphError({ status: 400, code: 100, message: "(#100) Invalid parameter", details, whatsapp });
}

export function invalidToken(): Response {
  return graphError({ status: 401, code: 190, message: "Invalid OAuth access token - Cannot parse access token" });
}

/** The simulator's own (non-provider) routes answer errors as `{error:{message}}`. */
export function simulatorError(status: number, message: string): Response {
  return json(status, { error: { message } });
}
