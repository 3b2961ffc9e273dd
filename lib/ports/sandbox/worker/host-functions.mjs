// @ts-check
import { Buffer } from "node:buffer";
import { limitFailure } from "./errors.mjs";
import { HOST_UTILITIES } from "./host-utilities.mjs";
import { buildObject, newBytes, readBytes, readNumber, readString } from "./values.mjs";

/**
 * The `host` object the prelude receives (and hides in its closures): the run-bound functions below
 * plus HOST_UTILITIES. Everything a function could abuse is checked here, in the worker, rather
 * than in the prelude, which runs in the function's own realm.
 */

/** @typedef {import("quickjs-emscripten").QuickJSContext} QuickJSContext */
/** @typedef {import("quickjs-emscripten").QuickJSHandle} QuickJSHandle */
/** @typedef {import("./host-utilities.mjs").HostFunction} HostFunction */
/** @typedef {import("./session.mjs").RunSession} RunSession */
/** @typedef {import("./protocol.mjs").BridgeFetchResponse} BridgeFetchResponse */
/** @typedef {import("./protocol.mjs").HostRequest} HostRequest */

const MAX_LOG_CHARS = 65536;
const MAX_FETCH_DESCRIPTION_CHARS = 256 * 1024;
/** Request bodies cross two threads as base64; responses are capped at 1 MiB by the caller's bridge. */
const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/** decisions.md "Hosted functions": KV keys ≤ 512 bytes, values ≤ 64 KiB. */
const MAX_KV_KEY_BYTES = 512;
const MAX_KV_VALUE_BYTES = 64 * 1024;
const MAX_KV_LIST_LIMIT = 1000;
const MAX_KV_ARGS_CHARS = 512 * 1024;
const NOT_WHILE_CHECKING = "is not available while the module's top level is checked at deploy; call it from inside the function";

/**
 * @param {QuickJSContext} ctx
 * @param {unknown} value the pool's BridgeFetchResponse
 */
function fetchAnswer(ctx, value) {
  const response = /** @type {BridgeFetchResponse} */ (value);
  const meta = { status: response.status, statusText: response.status_text, headers: response.headers, url: response.url };
  return buildObject(ctx, (answer) => {
    ctx.newString(JSON.stringify(meta)).consume((handle) => ctx.setProp(answer, "meta", handle));
    newBytes(ctx, Buffer.from(response.body_base64, "base64")).consume((handle) => ctx.setProp(answer, "body", handle));
  });
}

/**
 * @param {QuickJSContext} ctx
 * @param {unknown} value
 */
function kvAnswer(ctx, value) {
  return ctx.newString(JSON.stringify(value ?? null));
}

/**
 * @param {RunSession} session
 * @param {QuickJSHandle} descriptionHandle JSON {url, method, headers}
 * @param {QuickJSHandle} bodyHandle an ArrayBuffer, or undefined
 */
function hostFetch(session, descriptionHandle, bodyHandle) {
  const { context: ctx, hostCalls } = session;
  if (session.bridgeless) return hostCalls.rejected(`fetch ${NOT_WHILE_CHECKING}`);
  const description = JSON.parse(readString(ctx, descriptionHandle, MAX_FETCH_DESCRIPTION_CHARS, "fetch"));
  let body_base64 = null;
  if (ctx.typeof(bodyHandle) !== "undefined") {
    const size = ctx.getProp(bodyHandle, "byteLength").consume((length) => ctx.getNumber(length));
    if (size > MAX_REQUEST_BODY_BYTES) return hostCalls.rejected(`fetch: the request body is ${size} bytes; at most ${MAX_REQUEST_BODY_BYTES} are allowed`);
    body_base64 = readBytes(ctx, bodyHandle, 0, size).toString("base64");
  }
  if (session.subRequests >= session.limits.subRequests) {
    session.fail(limitFailure("sub_request_limit_exceeded", session.limits));
    return hostCalls.rejected(`fetch refused: at most ${session.limits.subRequests} fetch calls per run`);
  }
  session.subRequests += 1;
  const request = { url: String(description.url), method: String(description.method), headers: description.headers, body_base64 };
  return hostCalls.start({ op: "fetch", request }, fetchAnswer);
}

/**
 * @param {string} action
 * @param {Record<string, unknown>} args
 * @returns {HostRequest | string} the request, or why it is refused
 */
function kvRequest(action, args) {
  const key = String(args.key ?? "");
  if (action !== "list" && Buffer.byteLength(key, "utf8") > MAX_KV_KEY_BYTES) return `env.KV.${action}: keys are at most ${MAX_KV_KEY_BYTES} bytes`;
  if (action === "get" || action === "delete") return { op: "kv", action, key };
  if (action === "put") {
    const value = String(args.value);
    if (Buffer.byteLength(value, "utf8") > MAX_KV_VALUE_BYTES) return `env.KV.put: values are at most ${MAX_KV_VALUE_BYTES} bytes`;
    return { op: "kv", action, key, value };
  }
  if (action === "list") {
    const limit = args.limit === undefined ? undefined : Number(args.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_KV_LIST_LIMIT)) return `env.KV.list: limit is 1 to ${MAX_KV_LIST_LIMIT}`;
    /** @type {{ prefix?: string, limit?: number, cursor?: string }} */
    const options = {};
    if (args.prefix !== undefined) options.prefix = String(args.prefix);
    if (limit !== undefined) options.limit = limit;
    if (args.cursor !== undefined) options.cursor = String(args.cursor);
    return { op: "kv", action, options };
  }
  return `env.KV has no ${action} operation`;
}

/**
 * @param {RunSession} session
 * @param {QuickJSHandle} actionHandle
 * @param {QuickJSHandle} argsHandle
 */
function hostKv(session, actionHandle, argsHandle) {
  const { context: ctx, hostCalls } = session;
  if (session.bridgeless) return hostCalls.rejected(`env.KV ${NOT_WHILE_CHECKING}`);
  const action = readString(ctx, actionHandle, 16, "env.KV");
  const request = kvRequest(action, JSON.parse(readString(ctx, argsHandle, MAX_KV_ARGS_CHARS, "env.KV")));
  return typeof request === "string" ? hostCalls.rejected(request) : hostCalls.start(request, kvAnswer);
}

/**
 * @param {RunSession} session
 * @returns {Record<string, HostFunction>}
 */
function runFunctions(session) {
  return {
    log: (ctx, level, message, length) =>
      void session.logs.add(readString(ctx, level, 16, "console"), readString(ctx, message, MAX_LOG_CHARS, "console"), readNumber(ctx, length, "console")),
    fetch: (_ctx, description, body) => hostFetch(session, description, body),
    kv: (_ctx, action, args) => hostKv(session, action, args),
    setTimer: (ctx, id, delay) => void session.setTimer(readNumber(ctx, id, "timer"), readNumber(ctx, delay, "timer")),
    clearTimer: (ctx, id) => void session.clearTimer(readNumber(ctx, id, "timer")),
    groupUsed: (ctx, name) => void session.groupUsed(readString(ctx, name, 16, "prelude")),
    preludeGroup: (ctx, name) => {
      const group = readString(ctx, name, 16, "prelude");
      const source = session.preludeGroups[group];
      if (source === undefined) throw new Error(`no prelude group ${group}`);
      session.groupUsed(group);
      const evaluated = ctx.evalCode(source, `svc-${group}.js`, { type: "global", strict: true });
      if (evaluated.error) throw evaluated.error;
      return evaluated.value;
    },
  };
}

/**
 * @param {RunSession} session
 * @returns {QuickJSHandle} the `host` object; the caller disposes it
 */
export function createHostObject(session) {
  const ctx = session.context;
  const functions = { ...HOST_UTILITIES, ...runFunctions(session) };
  return buildObject(ctx, (host) => {
    for (const [name, implementation] of Object.entries(functions)) {
      ctx.newFunction(name, (...args) => implementation(ctx, ...args)).consume((handle) => ctx.setProp(host, name, handle));
    }
  });
}
