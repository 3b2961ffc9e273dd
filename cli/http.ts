/**
 * One JSON request of the CLI's HTTP commands (config, login, logout): what came back, parsed when it
 * is JSON. A request that never got an answer becomes an error saying what to check, since a wrong
 * --url or a stopped server is the usual cause.
 */
export interface JsonAnswer {
  status: number;
  ok: boolean;
  headers: Headers;
  text: string;
  /** The parsed body, or null when it is empty or not JSON. */
  json: unknown;
}

export interface JsonRequest {
  method: "GET" | "POST";
  key?: string;
  body?: unknown;
  timeoutMs: number;
  /** How to name the server in an unreachable error, and what to check then. */
  where: string;
  hint: string;
}

export async function requestJson(url: string, request: JsonRequest): Promise<JsonAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.key) headers.authorization = `Bearer ${request.key}`;
  if (request.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (failure) {
    const cause = failure instanceof Error && failure.cause instanceof Error ? failure.cause.message : String(failure);
    throw new Error(`Could not reach ${request.where}: ${cause}. ${request.hint}`, { cause: failure });
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, ok: response.ok, headers: response.headers, text, json };
}

/** The answer's JSON when it is an object (an API body or error body), else null. */
export function objectOf(json: unknown): Record<string, unknown> | null {
  return json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
}
