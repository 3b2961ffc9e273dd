// Evaluated inside QuickJS the first time a run touches one of its globals (see ../prelude.mjs): Headers,
// Request, Response and fetch. fetch crosses to the worker (`host.fetch`), which asks the caller's
// HostBridge on the main thread; the worker counts the sub-requests and ends the run past the limit.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- an expression: ../prelude.mjs evaluates the file for this function
(function installHttp(host, internals) {
  "use strict";

  internals.load("encoding");
  internals.load("url");
  const { URL, URLSearchParams } = internals;
  const { encoder, decoder } = internals.utf8;
  const copyBytes = internals.copyBytes;
  const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
  const INTERNAL = Symbol("internal");

  class Headers {
    #map = new Map();
    constructor(init) {
      if (init === undefined || init === null) return;
      const pairs =
        init instanceof Headers
          ? Array.from(init.entries())
          : typeof init[Symbol.iterator] === "function"
            ? Array.from(init, (pair) => Array.from(pair))
            : Object.entries(init);
      for (const pair of pairs) {
        if (pair.length !== 2) throw new TypeError("Headers: each pair must have exactly two items");
        this.append(pair[0], pair[1]);
      }
    }
    append(name, value) {
      const key = String(name).toLowerCase();
      const values = this.#map.get(key);
      if (values) values.push(String(value));
      else this.#map.set(key, [String(value)]);
    }
    delete(name) {
      this.#map.delete(String(name).toLowerCase());
    }
    get(name) {
      const values = this.#map.get(String(name).toLowerCase());
      return values ? values.join(", ") : null;
    }
    getSetCookie() {
      return (this.#map.get("set-cookie") || []).slice();
    }
    has(name) {
      return this.#map.has(String(name).toLowerCase());
    }
    set(name, value) {
      this.#map.set(String(name).toLowerCase(), [String(value)]);
    }
    forEach(callback, thisArg) {
      for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
    }
    *entries() {
      const names = Array.from(this.#map.keys()).sort();
      for (const name of names) yield [name, this.#map.get(name).join(", ")];
    }
    *keys() {
      for (const [name] of this.entries()) yield name;
    }
    *values() {
      for (const [, value] of this.entries()) yield value;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    get [Symbol.toStringTag]() {
      return "Headers";
    }
  }

  /** The body as bytes plus the content type it implies (the Fetch standard's "extract a body"). */
  function extractBody(body) {
    if (body === undefined || body === null) return { bytes: null, type: null };
    if (typeof body === "string") return { bytes: encoder.encode(body), type: "text/plain;charset=UTF-8" };
    if (body instanceof URLSearchParams) return { bytes: encoder.encode(body.toString()), type: "application/x-www-form-urlencoded;charset=UTF-8" };
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { bytes: copyBytes(body, "body"), type: null };
    return { bytes: encoder.encode(String(body)), type: "text/plain;charset=UTF-8" };
  }

  class Body {
    #bytes;
    #used = false;
    constructor(bytes) {
      this.#bytes = bytes;
    }
    get bodyUsed() {
      return this.#used;
    }
    get body() {
      return this.#bytes === null ? null : this.#bytes.slice();
    }
    #consume() {
      if (this.#used) return Promise.reject(new TypeError("Body has already been used"));
      this.#used = true;
      return Promise.resolve(this.#bytes === null ? new Uint8Array(0) : this.#bytes);
    }
    arrayBuffer() {
      return this.#consume().then((bytes) => bytes.slice().buffer);
    }
    bytes() {
      return this.#consume().then((bytes) => bytes.slice());
    }
    text() {
      return this.#consume().then((bytes) => decoder.decode(bytes));
    }
    json() {
      return this.text().then((text) => JSON.parse(text));
    }
    cloneBytes() {
      if (this.#used) throw new TypeError("Body has already been used");
      return this.#bytes === null ? null : this.#bytes.slice();
    }
  }

  function withContentType(headers, type) {
    if (type !== null && !headers.has("content-type")) headers.set("content-type", type);
    return headers;
  }

  class Request extends Body {
    #url;
    #method;
    #headers;
    constructor(input, init = {}) {
      const source = input instanceof Request ? input : null;
      const method = String(init.method || (source ? source.method : "GET")).toUpperCase();
      const bodyInit = init.body !== undefined ? init.body : source ? source.cloneBytes() : null;
      if ((method === "GET" || method === "HEAD") && bodyInit !== null && bodyInit !== undefined)
        throw new TypeError("Request with GET/HEAD method cannot have body");
      const { bytes, type } = extractBody(bodyInit);
      super(bytes);
      this.#url = new URL(source ? source.url : String(input)).href;
      this.#method = method;
      this.#headers = withContentType(new Headers(init.headers !== undefined ? init.headers : source ? source.headers : undefined), type);
    }
    get url() {
      return this.#url;
    }
    get method() {
      return this.#method;
    }
    get headers() {
      return this.#headers;
    }
    get redirect() {
      return "manual";
    }
    clone() {
      return new Request(this);
    }
  }

  class Response extends Body {
    #status;
    #statusText;
    #headers;
    #url = "";
    constructor(body = null, init = {}) {
      const status = init.status === undefined ? 200 : Number(init.status);
      const trusted = init[INTERNAL] === true;
      if (!trusted && (!Number.isInteger(status) || status < 200 || status > 599)) throw new RangeError(`Response: status ${init.status} is outside 200-599`);
      if (!trusted && body !== null && NULL_BODY_STATUSES.has(status)) throw new TypeError(`Response with status ${status} cannot have a body`);
      const { bytes, type } = extractBody(body);
      super(bytes);
      this.#status = status;
      this.#statusText = init.statusText === undefined ? "" : String(init.statusText);
      this.#headers = withContentType(new Headers(init.headers), type);
      if (trusted) this.#url = String(init.url || "");
    }
    static json(data, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      return new Response(JSON.stringify(data), { ...init, headers });
    }
    static redirect(url, status = 302) {
      return new Response(null, { status, headers: { location: new URL(url).href } });
    }
    get status() {
      return this.#status;
    }
    get ok() {
      return this.#status >= 200 && this.#status <= 299;
    }
    get statusText() {
      return this.#statusText;
    }
    get headers() {
      return this.#headers;
    }
    get url() {
      return this.#url;
    }
    get redirected() {
      return false;
    }
    get type() {
      return "default";
    }
    clone() {
      return new Response(this.cloneBytes(), { status: this.#status, statusText: this.#statusText, headers: this.#headers, url: this.#url, [INTERNAL]: true });
    }
  }

  function fetch(input, init) {
    try {
      const request = new Request(input, init);
      const body = request.cloneBytes();
      const description = JSON.stringify({ url: request.url, method: request.method, headers: Array.from(request.headers.entries()) });
      return host.fetch(description, body === null ? undefined : body.buffer).then((answer) => {
        const meta = JSON.parse(answer.meta);
        const bytes = NULL_BODY_STATUSES.has(meta.status) || request.method === "HEAD" ? null : new Uint8Array(answer.body);
        return new Response(bytes, { status: meta.status, statusText: meta.statusText, headers: meta.headers, url: meta.url, [INTERNAL]: true });
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async function responseResult(response) {
    if (response === null || typeof response !== "object" || typeof response.text !== "function") {
      throw new TypeError("The fetch handler must return a Response (for example `return Response.json(data)`)");
    }
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /** A WFP function's run (runtime.js `invoke`): its fetch handler gets the event as a POST. */
  internals.invokeWorkers = async function invokeWorkers(main, eventJson, context) {
    const pending = [];
    const ctx = { ...context, waitUntil: (promise) => void pending.push(Promise.resolve(promise)), passThroughOnException() {} };
    const request = new internals.Request("https://function.invalid/", { method: "POST", headers: { "content-type": "application/json" }, body: eventJson });
    const result = await responseResult(await main.fetch(request, internals.env, ctx));
    await Promise.allSettled(pending);
    return result;
  };

  internals.Request = Request;
  internals.Response = Response;
  internals.defineGlobals({ Headers, Request, Response, fetch });
});
