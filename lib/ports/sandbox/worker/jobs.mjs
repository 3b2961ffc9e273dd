// @ts-check
import { Buffer } from "node:buffer";
import { performance } from "node:perf_hooks";
import { failureText, invalidResult, isOutOfMemory, limitFailure, resultTooLarge } from "./errors.mjs";
import { exactString, functionPosition } from "./values.mjs";

/**
 * The two jobs a worker does: run a deployed function (`run`) and evaluate a module's top level to
 * detect its runtime (`check`, at deploy), each in a session of its own.
 */

/** @typedef {import("./session.mjs").RunSession} RunSession */
/** @typedef {import("./session.mjs").SessionIo} SessionIo */
/** @typedef {import("./session.mjs").Settled} Settled */
/** @typedef {import("./errors.mjs").Failure} Failure */
/** @typedef {import("./protocol.mjs").RunJob} RunJob */
/** @typedef {import("./protocol.mjs").CheckJob} CheckJob */
/** @typedef {import("./protocol.mjs").RunAnswer} RunAnswer */
/** @typedef {import("./protocol.mjs").CheckAnswer} CheckAnswer */
/** @typedef {import("./protocol.mjs").Diagnostic} Diagnostic */
/** @typedef {import("quickjs-emscripten").QuickJSHandle} QuickJSHandle */

/**
 * A host-side exception inside a job. QuickJS's own errors surfacing through quickjs-emscripten and
 * a refused allocation (engine.mjs) leave the engine sound; anything else (a WebAssembly trap, an
 * abort, a native stack overflow) may have left it corrupt, and the worker is replaced after the answer.
 * @param {unknown} error
 * @param {RunSession} session
 * @returns {Failure}
 */
function engineFailure(error, session) {
  const known = error instanceof Error && (isOutOfMemory(error) || error.name === "QuickJSUnwrapError");
  if (!known) session.brokenBy = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (session.fatal) return session.fatal;
  if (error instanceof Error && isOutOfMemory(error)) return limitFailure("memory_limit_exceeded", session.limits);
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { code: "uncaught_exception", detail: `the sandbox could not run the function (${text})` };
}

/**
 * @param {RunSession} session
 * @param {QuickJSHandle} jsonHandle the function's result as JSON text (prelude `invoke`)
 * @returns {{ resultJson: string | null, failure: Failure | null }}
 */
function readResult(session, jsonHandle) {
  const ctx = session.context;
  const { resultBytes } = session.limits;
  // The prelude's JSON.stringify can be replaced by the function's code: only JSON text is a result.
  const type = ctx.typeof(jsonHandle);
  if (type !== "string") return { resultJson: null, failure: invalidResult(`a ${type}`) };
  // UTF-8 never takes fewer bytes than UTF-16 code units, so the length alone can refuse a huge result
  // before it is copied out of QuickJS.
  const units = ctx.getProp(jsonHandle, "length").consume((length) => ctx.getNumber(length));
  if (units > resultBytes) return { resultJson: null, failure: resultTooLarge(units, session.limits) };
  const json = exactString(ctx, jsonHandle, units);
  const bytes = Buffer.byteLength(json, "utf8");
  if (bytes > resultBytes) return { resultJson: null, failure: resultTooLarge(bytes, session.limits) };
  return isJson(json) ? { resultJson: json, failure: null } : { resultJson: null, failure: invalidResult("text that is not JSON") };
}

/** @param {string} text */
function isJson(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Calls the prelude's `invoke` with the module; every argument handle is freed whatever happens (a
 * handle left alive would make QuickJS abort when the run's runtime is freed).
 * @param {RunSession} session
 * @param {QuickJSHandle} namespace taken over
 * @param {RunJob} job
 */
function callInvoke(session, namespace, job) {
  const args = [namespace];
  try {
    for (const text of [job.runtime, job.eventJson, job.contextJson]) args.push(session.context.newString(text));
    return session.call("invoke", args);
  } finally {
    for (const arg of args) arg.dispose();
  }
}

/**
 * @param {RunSession} session
 * @param {RunJob} job
 * @returns {Promise<{ resultJson: string | null, failure: Failure | null }>}
 */
async function invoke(session, job) {
  const loaded = await session.loadModule(job.code);
  if (loaded.kind !== "value") return { resultJson: null, failure: session.failureOf(loaded) };
  const called = callInvoke(session, loaded.handle, job);
  if (called.error) return { resultJson: null, failure: session.failureOf({ kind: "error", handle: called.error }) };
  const settled = await session.settle(called.value);
  if (settled.kind !== "value") return { resultJson: null, failure: session.failureOf(settled) };
  const result = settled.handle.consume((json) => session.slice(() => readResult(session, json)));
  return session.fatal ? { resultJson: null, failure: session.fatal } : result;
}

/**
 * @param {RunSession} session a prepared session, used for this run only (the caller disposes it)
 * @param {RunJob} job
 * @param {SessionIo} io
 * @returns {Promise<RunAnswer>}
 */
export async function runJob(session, job, io) {
  session.start(job.limits, io);
  let outcome;
  try {
    session.setEnv(job.envJson);
    outcome = await invoke(session, job);
  } catch (error) {
    outcome = { resultJson: null, failure: engineFailure(error, session) };
  }
  const logError = session.logs.limitError();
  const error = outcome.failure ? failureText(outcome.failure) : logError;
  /** @type {RunAnswer} */
  const answer = {
    status: error === null ? "ok" : "error",
    resultJson: outcome.failure ? null : outcome.resultJson,
    error,
    cpu_ms: Math.round(session.cpuMs * 100) / 100,
    sub_requests: session.subRequests,
    duration_ms: Math.round((performance.now() - session.startedAt) * 100) / 100,
  };
  return answer;
}

/**
 * Where the code imports `specifier` (the loader only hears the name, not the position).
 * @param {string} code
 * @param {string} specifier
 * @returns {{ line: number, column: number }}
 */
function importPosition(code, specifier) {
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`\\bimport\\b[^;]*?["'\`]${quoted}["'\`]`).exec(code) ?? /\bimport\b/.exec(code);
  if (!match) return { line: 1, column: 1 };
  const before = code.slice(0, match.index).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/**
 * @param {RunSession} session
 * @param {string} code
 * @param {Exclude<Settled, { kind: "value" }>} settled
 * @returns {Diagnostic}
 */
function loadDiagnostic(session, code, settled) {
  if (session.importRefused !== null && !session.fatal) {
    if (settled.kind === "error") settled.handle.dispose();
    const message = `import of "${session.importRefused}" is not allowed: hosted functions cannot import modules`;
    return { ...importPosition(code, session.importRefused), message };
  }
  if (settled.kind === "error") {
    const thrown = session.describe(settled.handle);
    settled.handle.dispose();
    if (!session.fatal) {
      const position = functionPosition(thrown.stack) ?? { line: 1, column: 1 };
      return { ...position, message: thrown.name ? `${thrown.name}: ${thrown.message}` : `Uncaught ${thrown.message}` };
    }
  }
  return { line: 1, column: 1, message: failureText(session.failureOf({ kind: "stuck" })) };
}

/**
 * @param {RunSession} session
 * @param {CheckJob} job
 * @returns {Promise<CheckAnswer>}
 */
async function detect(session, job) {
  const ctx = session.context;
  const loaded = await session.loadModule(job.code);
  if (loaded.kind !== "value") return { ok: false, diagnostics: [loadDiagnostic(session, job.code, loaded)] };
  const detected = loaded.handle.consume((namespace) => session.call("detect", [namespace]));
  if (detected.error) {
    return { ok: false, diagnostics: [loadDiagnostic(session, job.code, { kind: "error", handle: detected.error })] };
  }
  const shape = detected.value.consume((value) => ctx.getString(value));
  if (shape === "PLAIN" || shape === "WFP") return { ok: true, runtime: shape };
  return { ok: false, diagnostics: [{ line: 1, column: 1, message: shape.replace(/^error:/, "") }] };
}

/**
 * @param {RunSession} session a prepared session, used for this check only (the caller disposes it)
 * @param {CheckJob} job
 * @param {SessionIo} io
 * @returns {Promise<CheckAnswer>}
 */
export async function checkJob(session, job, io) {
  session.start(job.limits, { ...io, bridgeless: true });
  try {
    session.setEnv("{}");
    return await detect(session, job);
  } catch (error) {
    return { ok: false, diagnostics: [{ line: 1, column: 1, message: failureText(engineFailure(error, session)) }] };
  }
}
