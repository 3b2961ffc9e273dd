// Evaluated inside QuickJS for every run, before the function's module (see ../prelude.mjs): console,
// timers, crypto, `env` with `env.KV`, the entry points the worker calls (detect the module shape,
// invoke it, fire a timer), and the lazy globals of the other prelude files. Limits are enforced by
// the worker, not here: this code runs in the function's own realm and could be altered.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- an expression: ../prelude.mjs evaluates the file for this function
(function installRuntime(host, internals) {
  "use strict";

  // While a group is prepared ahead of its use (internals.preload), the globals it defines wait here.
  let held = null;

  /** Web globals are writable, configurable and not enumerable; every prelude file installs through this. */
  internals.defineGlobals = function defineGlobals(values) {
    if (held !== null) {
      held.values = values;
      return;
    }
    for (const [name, value] of Object.entries(values)) {
      Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
    }
  };

  // Compiling every Web API for every run would cost more than most functions themselves: a file is
  // evaluated the first time one of its globals is read (or by a file that needs it).
  const LAZY_GLOBALS = {
    TextEncoder: "encoding",
    TextDecoder: "encoding",
    atob: "encoding",
    btoa: "encoding",
    URL: "url",
    URLSearchParams: "url",
    Headers: "http",
    Request: "http",
    Response: "http",
    fetch: "http",
  };
  const loadedGroups = new Set();
  /** Groups evaluated before the run (preload) whose globals wait for their first use. */
  const prepared = new Map();

  /** A group's globals, defined now: evaluated here, or those a preload prepared (then the host hears of the use). */
  internals.load = function load(group) {
    if (loadedGroups.has(group)) return;
    loadedGroups.add(group);
    const outer = held;
    held = null;
    try {
      const values = prepared.get(group);
      if (values === undefined) {
        host.preludeGroup(group)(host, internals);
      } else {
        prepared.delete(group);
        host.groupUsed(group);
        internals.defineGlobals(values);
      }
    } finally {
      held = outer;
    }
  };

  /**
   * Evaluates a group before the run (the worker does it for the groups the previous run used) but
   * leaves its globals lazy: their first read defines them and tells the host the group was used, so
   * a group preloaded for nothing is not preloaded again. The groups it loads itself are defined.
   */
  internals.preload = function preload(group) {
    if (loadedGroups.has(group) || prepared.has(group)) return;
    held = { values: null };
    try {
      host.preludeGroup(group)(host, internals);
      if (held.values !== null) prepared.set(group, held.values);
    } finally {
      held = null;
    }
  };

  for (const [name, group] of Object.entries(LAZY_GLOBALS)) {
    Object.defineProperty(globalThis, name, {
      get() {
        internals.load(group);
        return globalThis[name];
      },
      set(value) {
        internals.defineGlobals({ [name]: value });
      },
      configurable: true,
      enumerable: false,
    });
  }

  const SHAPES =
    "export one of: `export default async function (event, ctx)` or `export async function handler(event, ctx)` (PLAIN), " +
    "or `export default { async fetch(request, env, ctx) }` (WFP)";
  const MAX_LOG_CHARS = 65536;
  const MAX_RANDOM_BYTES = 65536;
  // Taken before the function's code runs, which may replace any of them.
  const apply = Reflect.apply;
  const toText = String;
  const stringSlice = String.prototype.slice;

  function formatValue(value) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (value === undefined || typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") return String(value);
    const seen = new WeakSet();
    const json = JSON.stringify(value, (_key, item) => {
      if (typeof item === "bigint") return `${item}n`;
      if (typeof item === "function") return `[Function ${item.name || "anonymous"}]`;
      if (item instanceof Error) return `${item.name}: ${item.message}`;
      if (item !== null && typeof item === "object") {
        if (seen.has(item)) return "[Circular]";
        seen.add(item);
      }
      return item;
    });
    return json === undefined ? String(value) : json;
  }

  // A line crosses to the host at most MAX_LOG_CHARS long, with its full length: the host applies the
  // log limits (../logs.mjs) and knows what was cut.
  function logger(level) {
    return function (...args) {
      const message = toText(args.map(formatValue).join(" "));
      const length = message.length;
      host.log(level, length > MAX_LOG_CHARS ? apply(stringSlice, message, [0, MAX_LOG_CHARS]) : message, length);
    };
  }

  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = logger(level);
  console.trace = console.debug;

  const timers = new Map();
  let nextTimerId = 1;

  function startTimer(callback, delay, args, repeat) {
    if (typeof callback !== "function") throw new TypeError("setTimeout: the callback must be a function");
    const id = nextTimerId++;
    const ms = Math.max(0, Number(delay) || 0);
    timers.set(id, { callback, args, repeat: repeat ? Math.max(1, ms) : null });
    host.setTimer(id, ms);
    return id;
  }

  function clearTimer(id) {
    if (timers.delete(Number(id))) host.clearTimer(Number(id));
  }

  internals.fireTimer = function fireTimer(id) {
    const timer = timers.get(id);
    if (!timer) return;
    if (timer.repeat === null) timers.delete(id);
    else host.setTimer(id, timer.repeat);
    timer.callback(...timer.args);
  };

  const crypto = {
    randomUUID() {
      return host.randomUUID();
    },
    getRandomValues(view) {
      if (!ArrayBuffer.isView(view) || view instanceof Float32Array || view instanceof Float64Array || view instanceof DataView) {
        throw new TypeError("crypto.getRandomValues: expected an integer typed array");
      }
      if (view.byteLength > MAX_RANDOM_BYTES) {
        const error = new Error(`crypto.getRandomValues: at most ${MAX_RANDOM_BYTES} bytes at a time`);
        error.name = "QuotaExceededError";
        throw error;
      }
      new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(new Uint8Array(host.randomBytes(view.byteLength)));
      return view;
    },
  };

  function kvCall(action, args) {
    return host.kv(action, JSON.stringify(args)).then((answer) => JSON.parse(answer));
  }

  const KV = Object.freeze({
    get(key, options) {
      const type = typeof options === "string" ? options : options && options.type;
      return kvCall("get", { key: String(key) }).then((value) => (value !== null && type === "json" ? JSON.parse(value) : value));
    },
    put(key, value) {
      if (typeof value !== "string") return Promise.reject(new TypeError("env.KV.put: the value must be a string (use JSON.stringify)"));
      return kvCall("put", { key: String(key), value }).then(() => undefined);
    },
    delete(key) {
      return kvCall("delete", { key: String(key) }).then(() => undefined);
    },
    list(options = {}) {
      const args = {};
      if (options.prefix !== undefined) args.prefix = String(options.prefix);
      if (options.limit !== undefined) args.limit = Number(options.limit);
      if (options.cursor !== undefined && options.cursor !== null) args.cursor = String(options.cursor);
      return kvCall("list", args);
    },
  });

  internals.setEnv = function setEnv(secretsJson) {
    const env = JSON.parse(secretsJson);
    Object.defineProperty(env, "KV", { value: KV, enumerable: false });
    internals.env = env;
    internals.defineGlobals({ env });
  };

  internals.detect = function detect(namespace) {
    const main = namespace.default;
    if (typeof main === "function") return "PLAIN";
    if (main !== null && typeof main === "object" && typeof main.fetch === "function") return "WFP";
    if (typeof namespace.handler === "function") return "PLAIN";
    return `error:The module does not export a function svc can run: ${SHAPES}.`;
  };

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

  async function invokeWorkers(main, eventJson, context) {
    internals.load("http");
    const pending = [];
    const ctx = { ...context, waitUntil: (promise) => void pending.push(Promise.resolve(promise)), passThroughOnException() {} };
    const request = new internals.Request("https://function.invalid/", { method: "POST", headers: { "content-type": "application/json" }, body: eventJson });
    const result = await responseResult(await main.fetch(request, internals.env, ctx));
    await Promise.allSettled(pending);
    return result;
  }

  /** Runs the function and answers its result as JSON text (undefined becomes null). */
  internals.invoke = async function invoke(namespace, runtime, eventJson, contextJson) {
    const context = JSON.parse(contextJson);
    const shape = internals.detect(namespace);
    if (shape !== runtime) throw new TypeError(`The module no longer matches its ${runtime} shape: ${SHAPES}`);
    const main = namespace.default;
    const result =
      runtime === "WFP"
        ? await invokeWorkers(main, eventJson, context)
        : await (typeof main === "function" ? main : namespace.handler)(JSON.parse(eventJson), context);
    const json = JSON.stringify(result === undefined ? null : result);
    return json === undefined ? "null" : json;
  };

  internals.defineGlobals({
    console,
    crypto,
    setTimeout: (callback, delay, ...args) => startTimer(callback, delay, args, false),
    setInterval: (callback, delay, ...args) => startTimer(callback, delay, args, true),
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
    queueMicrotask: (callback) => void Promise.resolve().then(callback),
  });
});
