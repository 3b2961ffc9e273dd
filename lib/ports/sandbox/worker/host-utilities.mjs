// @ts-check
import { Buffer } from "node:buffer";
import { randomBytes, randomUUID } from "node:crypto";
import { URL, URLSearchParams } from "node:url";
import { TextDecoder } from "node:util";
import { newBytes, readBytes, readNumber, readString } from "./values.mjs";

/**
 * Host functions without run state, used by prelude/encoding.js and prelude/url.js: UTF-8, base64,
 * WHATWG URL parsing and randomness, done by Node rather than re-implemented inside QuickJS. A failure
 * the code should see as a DOM-style error answers null; the prelude throws the right class.
 */

/** @typedef {import("quickjs-emscripten").QuickJSContext} QuickJSContext */
/** @typedef {import("quickjs-emscripten").QuickJSHandle} QuickJSHandle */
/** @typedef {(ctx: QuickJSContext, ...args: QuickJSHandle[]) => QuickJSHandle | undefined} HostFunction */

/** Text handed to these helpers is bounded so a single call cannot exhaust the worker's own heap. */
const MAX_TEXT_CHARS = 8 * 1024 * 1024;
const MAX_RANDOM_BYTES = 65536;
const URL_PARTS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
const URL_SETTERS = new Set(["protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]);
const BASE64_FORGIVING = /^[A-Za-z0-9+/]*$/;

/** @param {URL} url */
function urlPartsJson(url) {
  /** @type {Record<string, string>} */
  const parts = {};
  for (const name of URL_PARTS) parts[name] = /** @type {string} */ (url[/** @type {keyof URL} */ (name)]);
  return JSON.stringify(parts);
}

/**
 * The WHATWG "forgiving-base64 decode": ASCII whitespace ignored, padding optional, anything else fails.
 * @param {string} data
 * @returns {string | null} the decoded bytes as a Latin1 string
 */
function forgivingAtob(data) {
  let text = data.replace(/[\t\n\f\r ]/g, "");
  if (text.length % 4 === 0) text = text.replace(/={1,2}$/, "");
  if (text.length % 4 === 1 || !BASE64_FORGIVING.test(text)) return null;
  return Buffer.from(text, "base64").toString("latin1");
}

/**
 * @param {QuickJSContext} ctx
 * @param {string | null} text
 */
function stringOrNull(ctx, text) {
  return text === null ? ctx.null : ctx.newString(text);
}

/** @type {Record<string, HostFunction>} */
export const HOST_UTILITIES = {
  utf8Encode: (ctx, text) => newBytes(ctx, Buffer.from(readString(ctx, text, MAX_TEXT_CHARS, "TextEncoder.encode"), "utf8")),
  utf8Decode: (ctx, buffer, offset, length, fatal, ignoreBOM) => {
    const bytes = readBytes(ctx, buffer, readNumber(ctx, offset, "offset"), readNumber(ctx, length, "length"));
    const options = { fatal: ctx.dump(fatal) === true, ignoreBOM: ctx.dump(ignoreBOM) === true };
    try {
      return ctx.newString(new TextDecoder("utf-8", options).decode(bytes));
    } catch (_invalid) {
      return ctx.null;
    }
  },
  atob: (ctx, data) => stringOrNull(ctx, forgivingAtob(readString(ctx, data, MAX_TEXT_CHARS, "atob"))),
  btoa: (ctx, data) => {
    const text = readString(ctx, data, MAX_TEXT_CHARS, "btoa");
    return stringOrNull(ctx, /[\u0100-\uffff]/.test(text) ? null : Buffer.from(text, "latin1").toString("base64"));
  },
  urlParse: (ctx, input, base) => {
    const href = readString(ctx, input, MAX_TEXT_CHARS, "URL");
    const baseHref = ctx.typeof(base) === "undefined" ? undefined : readString(ctx, base, MAX_TEXT_CHARS, "URL base");
    return stringOrNull(ctx, URL.canParse(href, baseHref) ? urlPartsJson(new URL(href, baseHref)) : null);
  },
  urlSet: (ctx, href, part, value) => {
    const name = readString(ctx, part, 16, "URL component");
    const text = readString(ctx, value, MAX_TEXT_CHARS, "URL component value");
    if (name === "href") return stringOrNull(ctx, URL.canParse(text) ? urlPartsJson(new URL(text)) : null);
    if (!URL_SETTERS.has(name)) throw new TypeError(`URL: ${name} cannot be set`);
    const url = new URL(readString(ctx, href, MAX_TEXT_CHARS, "URL"));
    Object.assign(url, { [name]: text });
    return ctx.newString(urlPartsJson(url));
  },
  searchParse: (ctx, text) => ctx.newString(JSON.stringify([...new URLSearchParams(readString(ctx, text, MAX_TEXT_CHARS, "URLSearchParams"))])),
  searchSerialize: (ctx, pairsJson) => {
    const pairs = JSON.parse(readString(ctx, pairsJson, MAX_TEXT_CHARS, "URLSearchParams"));
    return ctx.newString(new URLSearchParams(pairs).toString());
  },
  randomUUID: (ctx) => ctx.newString(randomUUID()),
  randomBytes: (ctx, count) => {
    const size = readNumber(ctx, count, "crypto.getRandomValues");
    if (!Number.isInteger(size) || size < 0 || size > MAX_RANDOM_BYTES) throw new RangeError(`crypto.getRandomValues: 0 to ${MAX_RANDOM_BYTES} bytes`);
    return newBytes(ctx, randomBytes(size));
  },
};
