// @ts-check
import { functionPosition } from "./values.mjs";

/**
 * The error texts of a run (decisions.md "Hosted functions"): each starts with its code, then says
 * what happened in words a function's author can act on.
 */

/** @typedef {import("./protocol.mjs").SandboxLimits} SandboxLimits */
/** @typedef {import("./values.mjs").Thrown} Thrown */
/** @typedef {{ code: string, detail: string }} Failure */

const MIB = 1024 * 1024;

/**
 * @param {"cpu_limit_exceeded" | "wall_time_exceeded" | "memory_limit_exceeded" | "sub_request_limit_exceeded"} code
 * @param {SandboxLimits} limits
 * @returns {Failure}
 */
export function limitFailure(code, limits) {
  switch (code) {
    case "cpu_limit_exceeded":
      return { code, detail: `the function used more than ${limits.cpuMs} ms of CPU time` };
    case "wall_time_exceeded":
      return { code, detail: `the function did not finish within ${limits.wallMs} ms` };
    case "memory_limit_exceeded":
      return { code, detail: `the function needed more than ${Math.round((limits.memoryBytes / MIB) * 10) / 10} MiB of memory` };
    case "sub_request_limit_exceeded":
      return { code, detail: `the function called fetch more than ${limits.subRequests} times` };
  }
}

/**
 * @param {number} bytes
 * @param {SandboxLimits} limits
 * @returns {Failure}
 */
export function resultTooLarge(bytes, limits) {
  return { code: "result_too_large", detail: `the result is ${bytes} bytes of JSON, more than the ${limits.resultBytes} allowed` };
}

/**
 * The function's result is not JSON text: JSON.stringify, replaced by the function's code, made
 * something else (issue 31 names the code).
 * @param {string} made what it made instead
 * @returns {Failure}
 */
export function invalidResult(made) {
  return { code: "invalid_result", detail: `the result must serialise to JSON, but JSON.stringify (replaced by the function's code?) made ${made}` };
}

/** @type {Failure} */
export const NEVER_SETTLES = {
  code: "uncaught_exception",
  detail: "the function awaits a promise that can never settle (no fetch, KV call or timer is pending that could settle it)",
};

/**
 * QuickJS's own error when an allocation fails (engine.mjs raises the same on the host side).
 * @param {{ name: string, message: string }} thrown
 * @returns {boolean}
 */
export function isOutOfMemory(thrown) {
  return thrown.name === "InternalError" && thrown.message === "out of memory";
}

/**
 * An exception the function did not catch; QuickJS's own out-of-memory error is the memory limit, and
 * so is a thrown non-error once the memory ran out (QuickJS throws null when it cannot even allocate
 * that error).
 * @param {Thrown} thrown
 * @param {SandboxLimits} limits
 * @param {boolean} [memoryRanOut] an allocation of this run found the memory full
 * @returns {Failure}
 */
export function thrownFailure(thrown, limits, memoryRanOut = false) {
  if (isOutOfMemory(thrown) || (memoryRanOut && thrown.name === "")) return limitFailure("memory_limit_exceeded", limits);
  const text = thrown.name ? `${thrown.name}: ${thrown.message}` : thrown.message;
  const position = functionPosition(thrown.stack);
  return { code: "uncaught_exception", detail: position ? `${text} (at ${position.line}:${position.column})` : text };
}

/** @param {Failure} failure */
export function failureText(failure) {
  return `${failure.code}: ${failure.detail}`;
}
