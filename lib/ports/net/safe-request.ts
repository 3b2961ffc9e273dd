import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { allowPrivateNetwork, env } from "@/lib/config";
import { errorKind } from "@/lib/error-kind";
import { isForbiddenAddress } from "@/lib/ports/net/address-policy";

/**
 * The one way svc talks to a URL a customer gave it (webhooks, media links, function fetches,
 * data-exchange URLs): the SSRF guard of docs/spec/decisions.md ("Webhook delivery").
 *
 * - only http: and https:, no credentials in the URL;
 * - an IP-literal host is checked before connecting; a hostname is resolved by our own `lookup`
 *   (handed to http.request), which refuses if ANY resolved address is forbidden, so the check is made
 *   on the addresses actually connected to, at connect time (no DNS-rebinding window);
 * - redirects are not followed (a 3xx comes back as is; following one would be a new safeRequest);
 * - one deadline covers connect, request and response; the body is read up to maxResponseBytes, then
 *   the socket is destroyed;
 * - connections are kept alive and reused per host and port, one pool per network policy: a reused
 *   socket leads to the address that was checked when it connected. A request whose reused socket
 *   turns out closed by the server (ECONNRESET before any answer) is sent once more on a new one.
 */

/** The URL or the address it leads to is not allowed. `reason` says why (see isForbiddenAddress). */
export class SsrfError extends errorKind("SsrfError") {
  readonly reason: string;
  /** The refused address, when the refusal is about an address. */
  readonly address: string | null;
  constructor(reason: string, message: string, address: string | null = null) {
    super(message);
    this.name = "SsrfError";
    this.reason = reason;
    this.address = address;
  }
}

/** The whole request (connect + response) did not finish within timeoutMs. */
export class OutboundTimeoutError extends errorKind("OutboundTimeoutError") {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`outbound request timed out after ${timeoutMs} ms`);
    this.name = "OutboundTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

/** The connection failed: ECONNREFUSED, ENOTFOUND, ECONNRESET, a TLS error... `code` is Node's code. */
export class OutboundNetworkError extends errorKind("OutboundNetworkError") {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboundNetworkError";
    this.code = code;
  }
}

/** Same shape as dns.lookup(hostname, { all: true }, callback). Injected by tests only. */
export type LookupAll = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

export interface SafeRequestOptions {
  /** Defaults to POST when there is a body, else GET. Hosted functions' fetch may use any method. */
  method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bound on the whole exchange: connect, send, response headers and body. */
  timeoutMs: number;
  /** The body is read up to this many bytes; the rest is dropped and `truncated` is set. */
  maxResponseBytes: number;
  /** Defaults to env().allowPrivateNetwork (true in dev and tests, false in production). */
  allowPrivateNetwork?: boolean;
  /** Resolver override for tests (no network there); defaults to dns.lookup. */
  lookup?: LookupAll;
}

export interface SafeResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The server sent more than maxResponseBytes. */
  truncated: boolean;
  durationMs: number;
}

const defaultLookup: LookupAll = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** Parses and statically checks a URL: scheme, credentials, and an IP-literal host. */
function checkUrl(raw: string, allowPrivate: boolean): { url: URL; host: string; ipLiteral: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsrfError("invalid_url", "not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SsrfError("unsupported_scheme", `only http and https URLs are allowed, not ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new SsrfError("credentials_in_url", "URLs with credentials (user:password@) are not allowed");
  }
  // The WHATWG parser already turned decimal/octal/hex/short IPv4 forms into dotted quads.
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (host === "") throw new SsrfError("invalid_url", "the URL has no host");
  const ipLiteral = net.isIP(host) !== 0;
  if (ipLiteral && !allowPrivate) refuseIfForbidden(host);
  return { url, host, ipLiteral };
}

function refuseIfForbidden(address: string): void {
  const verdict = isForbiddenAddress(address);
  if (verdict.forbidden) {
    const reason = verdict.reason ?? "forbidden";
    throw new SsrfError(reason, `address ${address} is not allowed (${reason})`, address);
  }
}

/** Resolves every address of `host`; throws SsrfError if any of them is forbidden. */
function resolveChecked(
  lookup: LookupAll,
  host: string,
  options: dns.LookupAllOptions,
  callback: (err: Error | null, addresses: dns.LookupAddress[]) => void,
): void {
  lookup(host, options, (err, addresses) => {
    if (err) return callback(err, []);
    if (!addresses || addresses.length === 0) return callback(notFound(host), []);
    for (const { address } of addresses) {
      const verdict = isForbiddenAddress(address);
      if (verdict.forbidden) {
        return callback(new SsrfError(verdict.reason ?? "forbidden", `${host} resolves to ${address}, which is not allowed (${verdict.reason})`, address), []);
      }
    }
    callback(null, addresses);
  });
}

/** The `lookup` handed to http.request: resolves all addresses, checks them unless private is allowed. */
function connectLookup(lookup: LookupAll, allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    const all: dns.LookupAllOptions = { ...options, all: true };
    const done = (err: Error | null, addresses: dns.LookupAddress[]) => {
      if (err) return callback(err, []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    };
    if (allowPrivate) {
      lookup(hostname, all, (err, addresses) => {
        if (err) return done(err, []);
        if (!addresses || addresses.length === 0) return done(notFound(hostname), []);
        done(null, addresses);
      });
    } else {
      resolveChecked(lookup, hostname, all, done);
    }
  };
}

function notFound(host: string): OutboundNetworkError {
  return new OutboundNetworkError("ENOTFOUND", `${host} has no addresses`);
}

function toOutboundError(err: unknown): Error {
  if (SsrfError.is(err) || OutboundTimeoutError.is(err) || OutboundNetworkError.is(err)) {
    return err;
  }
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? "EUNKNOWN";
  const message = err instanceof Error ? err.message : String(err);
  return new OutboundNetworkError(code, message, { cause: err });
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * Checks a URL when it is saved (webhook endpoint, media link...): scheme, credentials, and (unless
 * private networks are allowed) that the host is not, and does not resolve to, a forbidden address.
 * This is advisory: DNS can change, so safeRequest checks again at connect time. Resolves with the
 * parsed URL; throws SsrfError, or OutboundNetworkError when the name does not resolve.
 */
export async function assertPublicUrl(url: string, allowPrivate: boolean = env().allowPrivateNetwork, options: { lookup?: LookupAll } = {}): Promise<URL> {
  const checked = checkUrl(url, allowPrivate);
  if (allowPrivate || checked.ipLiteral) return checked.url;
  const lookup = options.lookup ?? defaultLookup;
  await new Promise<void>((resolve, reject) => {
    resolveChecked(lookup, checked.host, { all: true }, (err) => (err ? reject(toOutboundError(err)) : resolve()));
  });
  return checked.url;
}

/** Keep-alive pools, one per (protocol, network policy): a pooled socket never crosses policies. */
const agents = new Map<string, http.Agent>();
function pooledAgent(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxFreeSockets: 64, scheduling: "lifo" as const };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** One guarded HTTP(S) request. See the module comment for the rules. */
export async function safeRequest(url: string, options: SafeRequestOptions): Promise<SafeResponse> {
  try {
    return await guardedRequest(url, options, true);
  } catch (error) {
    if (StaleSocketError.is(error)) return guardedRequest(url, options, false);
    throw error;
  }
}

/** A pooled socket the server had already closed: nothing was received, so the request is sent again. */
class StaleSocketError extends errorKind("StaleSocketError") {}

async function guardedRequest(url: string, options: SafeRequestOptions, pooled: boolean): Promise<SafeResponse> {
  const plan = requestPlan(url, options);
  const { timeoutMs, maxResponseBytes } = options;
  const { target } = plan;

  return new Promise<SafeResponse>((resolve, reject) => {
    const started = performance.now();
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const fail = (err: unknown) => settle(() => reject(toOutboundError(err)));

    const req = plan.transport.request(
      {
        protocol: target.protocol,
        hostname: plan.host,
        port: target.port === "" ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: plan.method,
        headers: plan.headers,
        // A test's own resolver gets its own connection: pooled sockets were checked by the default one.
        agent: pooled && !options.lookup ? pooledAgent(target.protocol, plan.allowPrivate) : false,
        lookup: connectLookup(options.lookup ?? defaultLookup, plan.allowPrivate),
      },
      (res) =>
        readCapped(
          res,
          req,
          maxResponseBytes,
          () => settled,
          fail,
          (body, truncated) =>
            settle(() =>
              resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body, truncated, durationMs: performance.now() - started }),
            ),
        ),
    );

    timer = setTimeout(() => {
      const err = new OutboundTimeoutError(timeoutMs);
      settle(() => reject(err));
      req.destroy(err);
    }, timeoutMs);

    req.on("error", (err: NodeJS.ErrnoException) => {
      if (req.reusedSocket && err.code === "ECONNRESET" && !settled) return settle(() => reject(new StaleSocketError()));
      fail(err);
    });
    req.end(plan.body);
  });
}

/** The options checked and the URL statically checked (checkUrl): what transport.request is given. */
function requestPlan(url: string, options: SafeRequestOptions) {
  const allowPrivate = options.allowPrivateNetwork ?? allowPrivateNetwork();
  const { timeoutMs, maxResponseBytes } = options;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError("timeoutMs must be a positive number");
  if (!Number.isInteger(maxResponseBytes) || maxResponseBytes < 0) {
    throw new RangeError("maxResponseBytes must be a non-negative integer");
  }
  const { url: target, host } = checkUrl(url, allowPrivate);
  const transport = target.protocol === "https:" ? https : http;
  const body = options.body;
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-length")) {
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  return { allowPrivate, target, host, transport, method, headers, body };
}

/**
 * Reads the response body up to `maxBytes`. Past that, what fits is kept, `truncated` is set and both
 * ends are destroyed; a connection that closes before the end is a failure. Nothing is read once the
 * request has settled (`settled`: the deadline, or an error).
 */
function readCapped(
  res: http.IncomingMessage,
  req: http.ClientRequest,
  maxBytes: number,
  settled: () => boolean,
  fail: (err: unknown) => void,
  done: (body: Buffer, truncated: boolean) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const finish = () => {
    if (!settled()) done(Buffer.concat(chunks, size), truncated);
  };
  res.on("data", (chunk: Buffer) => {
    if (settled()) return;
    const room = maxBytes - size;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size += Math.max(room, 0);
      truncated = true;
      finish();
      res.destroy();
      req.destroy();
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  });
  res.on("end", finish);
  res.on("error", fail);
  res.on("close", () => {
    if (!settled()) fail(new OutboundNetworkError("ECONNRESET", "the connection closed before the response ended"));
  });
}
