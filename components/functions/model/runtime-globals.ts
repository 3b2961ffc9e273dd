/**
 * The globals a hosted function has beside ES2023 (docs/spec/decisions.md "Hosted functions",
 * "Inside"), declared for the editor's TypeScript service. The editor's lib is ES2023 only, without the
 * DOM, so these are the only web APIs it offers: code that reads `document` or `window` is flagged,
 * as it would fail at run time. Shapes follow the web platform, narrowed to what the sandbox provides.
 */
export const RUNTIME_GLOBALS = `
/** Captured into the run's logs (200 lines / 64 KiB per run; more is truncated). */
interface Console {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
}
declare var console: Console;

type HeadersInit = [string, string][] | Record<string, string> | Headers;
type BodyInit = string | ArrayBuffer | ArrayBufferView | URLSearchParams;

interface Headers {
  append(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  forEach(callback: (value: string, name: string, parent: Headers) => void): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var Headers: { prototype: Headers; new (init?: HeadersInit): Headers };

interface Body {
  /** The body's bytes (a copy), or null without a body. Not a stream: the sandbox holds bodies whole. */
  readonly body: Uint8Array | null;
  readonly bodyUsed: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  /** Parses the body as JSON. */
  json(): Promise<any>;
  text(): Promise<string>;
}

interface RequestInit {
  /** GET by default. */
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit | null;
}

interface Request extends Body {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  clone(): Request;
}
declare var Request: { prototype: Request; new (input: string | URL | Request, init?: RequestInit): Request };

interface ResponseInit {
  /** 200 by default. */
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

interface Response extends Body {
  /** True for a 2xx status. */
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
  clone(): Response;
}
declare var Response: {
  prototype: Response;
  new (body?: BodyInit | null, init?: ResponseInit): Response;
  /** A JSON response: the body is JSON.stringify(data), content-type application/json unless given. */
  json(data: unknown, init?: ResponseInit): Response;
  redirect(url: string | URL, status?: number): Response;
};

/**
 * An HTTP request from svc's servers: http(s) only, private and internal addresses refused, 10 s and
 * 1 MiB per response, at most 50 per run (\`sub_requests\`).
 */
declare function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;

interface URLSearchParams {
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  toString(): string;
  forEach(callback: (value: string, key: string, parent: URLSearchParams) => void): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var URLSearchParams: {
  prototype: URLSearchParams;
  new (init?: string | Record<string, string> | [string, string][] | URLSearchParams): URLSearchParams;
};

interface URL {
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
  toJSON(): string;
}
declare var URL: { prototype: URL; new (url: string | URL, base?: string | URL): URL };

interface TextEncoder {
  readonly encoding: string;
  /** UTF-8 bytes of the string. */
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };

interface TextDecoder {
  readonly encoding: string;
  decode(input?: ArrayBuffer | ArrayBufferView, options?: { stream?: boolean }): string;
}
declare var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder };

/** Decodes base64 into a binary string. */
declare function atob(data: string): string;
/** Encodes a binary string as base64. */
declare function btoa(data: string): string;

interface Crypto {
  /** A random (version 4) UUID. */
  randomUUID(): string;
  /** Fills the typed array with cryptographically strong random values and returns it. */
  getRandomValues<T extends ArrayBufferView>(array: T): T;
}
declare var crypto: Crypto;

/** Runs the callback later, within the run's 10 s wall-time limit. */
declare function setTimeout(handler: (...args: any[]) => void, timeout?: number, ...args: any[]): number;
declare function clearTimeout(id: number | undefined): void;
/** Runs the callback repeatedly, within the run's 10 s wall-time limit. */
declare function setInterval(handler: (...args: any[]) => void, timeout?: number, ...args: any[]): number;
declare function clearInterval(id: number | undefined): void;
declare function queueMicrotask(callback: () => void): void;
`;
