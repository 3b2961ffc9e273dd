// @ts-check
import { Buffer } from "node:buffer";

/** @typedef {import("quickjs-emscripten").QuickJSContext} QuickJSContext */
/** @typedef {import("quickjs-emscripten").QuickJSHandle} QuickJSHandle */

/** File name the function's module is evaluated under: error stacks read `function.js:<line>:<column>`. */
export const FUNCTION_FILE_NAME = "function.js";

/** Strings longer than this are never copied out of QuickJS whole (an error message, a log line). */
const DESCRIBE_MAX_CHARS = 2000;

/**
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle a string handle
 */
function stringLength(ctx, handle) {
  return ctx.getProp(handle, "length").consume((length) => ctx.getNumber(length));
}

/** Each context's own JSON.stringify, taken before any code of the function ran (it may replace the global). */
const quoters = new WeakMap();

/**
 * Keeps the context's JSON.stringify for `exactString`. Call it before the function's code runs;
 * the caller disposes the handle before the context.
 * @param {QuickJSContext} ctx
 * @returns {QuickJSHandle}
 */
export function keepQuoter(ctx) {
  const quoter = ctx.getProp(ctx.global, "JSON").consume((json) => ctx.getProp(json, "stringify"));
  quoters.set(ctx, quoter);
  return quoter;
}

/**
 * The whole text of a string handle whose length is `length`. quickjs-emscripten copies a string out
 * as a C string: a NUL ends the copy and each lone surrogate comes out as three U+FFFD. When the copy
 * cannot be the whole string, it is read again as the JSON the context's own JSON.stringify makes of
 * it, which escapes both (no code of the function runs for a string).
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle a string handle
 * @param {number} length its length in UTF-16 code units
 */
export function exactString(ctx, handle, length) {
  const text = ctx.getString(handle);
  const quoter = quoters.get(ctx);
  if ((text.length === length && !text.includes("\uFFFD")) || !quoter) return text;
  const quoted = ctx.callFunction(quoter, ctx.undefined, handle);
  if (quoted.error) {
    quoted.error.dispose();
    return text;
  }
  return /** @type {string} */ (JSON.parse(quoted.value.consume((json) => ctx.getString(json))));
}

/**
 * A string argument, refused before it is copied when it is longer than `maxChars`.
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle
 * @param {number} maxChars
 * @param {string} what
 */
export function readString(ctx, handle, maxChars, what) {
  if (ctx.typeof(handle) !== "string") throw new TypeError(`${what}: expected a string`);
  const length = stringLength(ctx, handle);
  if (length > maxChars) throw new RangeError(`${what}: longer than ${maxChars} characters`);
  return exactString(ctx, handle, length);
}

/**
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle
 * @param {string} what
 */
export function readNumber(ctx, handle, what) {
  if (ctx.typeof(handle) !== "number") throw new TypeError(`${what}: expected a number`);
  return ctx.getNumber(handle);
}

/**
 * A copy of `length` bytes at `offset` of an ArrayBuffer handle.
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle
 * @param {number} offset
 * @param {number} length
 */
export function readBytes(ctx, handle, offset, length) {
  return ctx.getArrayBuffer(handle).consume(({ value: view }) => {
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + length > view.length) {
      throw new RangeError("byte range outside of the buffer");
    }
    return Buffer.from(view.subarray(offset, offset + length));
  });
}

/**
 * A new ArrayBuffer holding exactly these bytes (a Node Buffer may be a view into a larger pool).
 * @param {QuickJSContext} ctx
 * @param {Uint8Array} bytes
 */
export function newBytes(ctx, bytes) {
  return ctx.newArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/**
 * A new object filled by `fill`; when filling fails (an allocation refused half-way), the object is
 * disposed before the error goes on, so no handle outlives the run's runtime (QuickJS aborts on
 * freeing a runtime that still has live objects).
 * @param {QuickJSContext} ctx
 * @param {(object: QuickJSHandle) => void} fill
 */
export function buildObject(ctx, fill) {
  const object = ctx.newObject();
  try {
    fill(object);
    return object;
  } catch (error) {
    object.dispose();
    throw error;
  }
}

/**
 * A short, never huge, text for a string handle.
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle
 */
function shortString(ctx, handle) {
  const length = stringLength(ctx, handle);
  if (length > 1_000_000) return `<${length} characters>`;
  const text = exactString(ctx, handle, length);
  return text.length > DESCRIBE_MAX_CHARS ? `${text.slice(0, DESCRIBE_MAX_CHARS)}…` : text;
}

/**
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle
 * @param {string} key
 */
function stringProperty(ctx, handle, key) {
  return ctx.getProp(handle, key).consume((value) => (ctx.typeof(value) === "string" ? shortString(ctx, value) : null));
}

/**
 * @typedef {object} Thrown
 * @property {string} name the error's name, "" for a thrown non-error
 * @property {string} message
 * @property {string} stack
 */

/**
 * What the code threw, read without copying anything large. Reading `name` or `message` may run a
 * getter of the function's, so callers do this inside the CPU clock (the interrupt handler applies).
 * @param {QuickJSContext} ctx
 * @param {QuickJSHandle} handle
 * @returns {Thrown}
 */
export function describeThrown(ctx, handle) {
  const type = ctx.typeof(handle);
  if (type === "object" && !ctx.sameValue(handle, ctx.null)) {
    return {
      name: stringProperty(ctx, handle, "name") ?? "Error",
      message: stringProperty(ctx, handle, "message") ?? "",
      stack: stringProperty(ctx, handle, "stack") ?? "",
    };
  }
  if (type === "string") return { name: "", message: shortString(ctx, handle), stack: "" };
  if (type === "symbol") return { name: "", message: "Symbol()", stack: "" };
  return { name: "", message: String(ctx.dump(handle)), stack: "" };
}

/**
 * The first position of the function's own file in an error stack (1-based line and column).
 * @param {string} stack
 * @returns {{ line: number, column: number } | null}
 */
export function functionPosition(stack) {
  const match = new RegExp(`${FUNCTION_FILE_NAME.replace(".", "\\.")}:(\\d+):(\\d+)`).exec(stack);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
}
