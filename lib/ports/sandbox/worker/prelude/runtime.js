// Evaluated inside QuickJS for every run, before the function's module (see ../prelude.mjs): `env`
// with `env.KV`, queueMicrotask, the entry points the worker calls (detect the module shape, invoke
// it), and the lazy globals of the other prelude files (console, timers and crypto among them: the
// runtime is made again for every run and compiling this file is most of that, so what a run may not
// use is compiled when it first does). Limits are enforced by the worker, not here: this code runs in
// the function's own realm and could be altered.
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
    console: "console",
    crypto: "crypto",
    setTimeout: "timers",
    setInterval: "timers",
    clearTimeout: "timers",
    clearInterval: "timers",
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
  // Taken before the function's code runs, which may replace any of them (console.js uses them).
  internals.intrinsics = { apply: Reflect.apply, toText: String, stringSlice: String.prototype.slice };

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

  /** Runs the function and answers its result as JSON text (undefined becomes null). */
  internals.invoke = async function invoke(namespace, runtime, eventJson, contextJson) {
    const context = JSON.parse(contextJson);
    const shape = internals.detect(namespace);
    if (shape !== runtime) throw new TypeError(`The module no longer matches its ${runtime} shape: ${SHAPES}`);
    const main = namespace.default;
    let result;
    if (runtime === "WFP") {
      internals.load("http");
      result = await internals.invokeWorkers(main, eventJson, context);
    } else {
      result = await (typeof main === "function" ? main : namespace.handler)(JSON.parse(eventJson), context);
    }
    const json = JSON.stringify(result === undefined ? null : result);
    return json === undefined ? "null" : json;
  };

  internals.defineGlobals({
    queueMicrotask: (callback) => void Promise.resolve().then(callback),
  });
});
