// @ts-check
import { performance } from "node:perf_hooks";
import { clearTimeout, setTimeout } from "node:timers";
import { CpuClock } from "./cpu-clock.mjs";
import { NEVER_SETTLES, limitFailure, thrownFailure } from "./errors.mjs";
import { HostCalls } from "./host-calls.mjs";
import { createHostObject } from "./host-functions.mjs";
import { LogBuffer } from "./logs.mjs";
import { PRELUDE_FILE_NAME } from "./prelude.mjs";
import { FUNCTION_FILE_NAME, describeThrown, keepQuoter } from "./values.mjs";

/**
 * One run: a fresh QuickJS runtime and context (prepared before the job arrives, used once, then
 * disposed) under the run's limits, the host functions, and the loop that drives the function's
 * promises. QuickJS only runs inside `slice`s (timed by the CPU clock, under the interrupt handler);
 * between slices the worker waits for a host answer, a timer or the wall deadline, so time spent
 * awaiting fetch or KV is not CPU time.
 */

/** @typedef {import("quickjs-emscripten").QuickJSContext} QuickJSContext */
/** @typedef {import("quickjs-emscripten").QuickJSRuntime} QuickJSRuntime */
/** @typedef {import("quickjs-emscripten").QuickJSHandle} QuickJSHandle */
/** @typedef {import("./engine.mjs").Engine} Engine */
/** @typedef {import("./errors.mjs").Failure} Failure */
/** @typedef {import("./protocol.mjs").SandboxLimits} SandboxLimits */
/** @typedef {import("./protocol.mjs").FromWorker} FromWorker */
/** @typedef {import("./host-calls.mjs").HostResult} HostResult */
/** @typedef {{ kind: "host", result: HostResult } | { kind: "timer", id: number }} RunEvent */
/** @typedef {{ kind: "value", handle: QuickJSHandle } | { kind: "error", handle: QuickJSHandle } | { kind: "fatal" } | { kind: "stuck" }} Settled */

/**
 * @typedef {object} SessionIo
 * @property {number} runId
 * @property {Float64Array} shared the slots the pool reads (protocol.mjs)
 * @property {(message: FromWorker) => void} post
 * @property {boolean} bridgeless true for `check`: no fetch or KV at deploy time
 */

/**
 * QuickJS's own stack check. The pool gives the worker thread a native stack many times larger
 * (resourceLimits.stackSizeMb), so deep recursion always ends here as a clean "stack overflow".
 */
const MAX_STACK_BYTES = 1024 * 1024;
const MAX_PENDING_TIMERS = 1000;
/** Before `start`, nothing of the function runs: no limit can be reached. */
const IDLE_LIMITS = { cpuMs: Infinity, wallMs: Infinity, memoryBytes: Infinity, subRequests: 0, logLines: 0, logBytes: 0, resultBytes: 0 };

export class RunSession {
  /** @type {Failure | null} the limit or error that ends the run */
  fatal = null;
  subRequests = 0;
  bridgeless = false;
  /** @type {string | null} the first module the code tried to import */
  importRefused = null;
  /** @type {string | null} set when the engine failed under this run: the worker must not be reused */
  brokenBy = null;
  /** @type {SandboxLimits} */ limits = IDLE_LIMITS;
  startedAt = 0;
  /** @type {CpuClock | null} */ clock = null;
  /** @type {LogBuffer} */ logs = new LogBuffer(IDLE_LIMITS, 0, () => {});
  /** @type {RunEvent[]} */ #events = [];
  /** @type {(() => void) | null} */ #wake = null;
  /** @type {Map<number, NodeJS.Timeout>} */ #timers = new Map();
  /** @type {QuickJSHandle | null} */ #internals = null;
  /** @type {QuickJSHandle | null} the context's own JSON.stringify (values.mjs exactString) */ #quoter = null;
  /** @type {NodeJS.Timeout | undefined} */ #wallTimer;
  /** @type {((message: FromWorker) => void) | null} */ #post = null;
  #runId = 0;
  #engine;
  #wallDeadline = Infinity;
  #refusedGrowthsAtStart = 0;
  /**
   * The lazy prelude groups the run used (evaluated on demand, or preloaded and then read): the next
   * session of this worker preloads them. Not those preloaded and never read, so one run that needed
   * URL does not make every later run of the worker pay for it.
   * @type {Set<string>}
   */
  usedGroups = new Set();
  #started = false;

  /**
   * Prepares a runtime for one future run (the worker does this between jobs, off the run's latency):
   * a fresh QuickJS runtime and context with the prelude evaluated, and the lazy groups in `preload`
   * evaluated with their globals still lazy (those the previous run used: the same function often
   * runs again).
   * @param {Engine} engine
   * @param {Iterable<string>} [preload]
   */
  constructor(engine, preload = []) {
    this.#engine = engine;
    this.preludeGroups = engine.prelude.groups;
    /** @type {QuickJSRuntime} */
    this.runtime = engine.module.newRuntime();
    this.runtime.setMemoryLimit(engine.memoryCapBytes);
    this.runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.runtime.setInterruptHandler(() => this.#shouldInterrupt());
    this.runtime.setModuleLoader((name) => {
      this.importRefused ??= name;
      return { error: new Error(`import of "${name}" refused: hosted functions cannot import modules; put the code you need in the function's source`) };
    });
    /** @type {QuickJSContext} */
    this.context = this.runtime.newContext();
    this.#quoter = keepQuoter(this.context);
    this.hostCalls = new HostCalls(this.context, (call, request) => this.#post?.({ type: "host", id: this.#runId, call, request }));
    this.#install();
    for (const group of preload) {
      this.context.newString(group).consume((name) => this.context.unwrapResult(this.call("preload", [name])).dispose());
    }
  }

  /**
   * Starts the run: its limits, clocks and channel to the pool.
   * @param {SandboxLimits} limits
   * @param {SessionIo} io
   */
  start(limits, io) {
    this.#started = true;
    this.limits = limits;
    this.bridgeless = io.bridgeless;
    this.#post = io.post;
    this.#runId = io.runId;
    this.startedAt = performance.now();
    this.clock = new CpuClock(io.shared);
    this.logs = new LogBuffer(limits, this.startedAt, (line) => io.post({ type: "log", id: io.runId, line }));
    this.runtime.setMemoryLimit(Math.min(limits.memoryBytes, this.#engine.memoryCapBytes));
    this.#wallDeadline = Date.now() + limits.wallMs;
    this.#refusedGrowthsAtStart = this.#engine.refusedGrowths;
    this.#wallTimer = setTimeout(() => this.fail(limitFailure("wall_time_exceeded", limits)), limits.wallMs);
  }

  /**
   * A lazy prelude group the run used; what the session's preload does before `start` is not a use.
   * @param {string} group
   */
  groupUsed(group) {
    if (this.#started && group in this.preludeGroups) this.usedGroups.add(group);
  }

  /** Whether an allocation of this run found the memory full (engine.mjs). */
  get memoryRanOut() {
    return this.#engine.refusedGrowths > this.#refusedGrowthsAtStart;
  }

  /** ms of the function's own code so far */
  get cpuMs() {
    return this.clock?.usedMs ?? 0;
  }

  /** @param {Failure} failure the first one wins: it is why the run ends */
  fail(failure) {
    this.fatal ??= failure;
    this.#signal();
  }

  #shouldInterrupt() {
    if (!this.fatal && this.clock?.exceeds(this.limits.cpuMs)) this.fail(limitFailure("cpu_limit_exceeded", this.limits));
    else if (!this.fatal && Date.now() >= this.#wallDeadline) this.fail(limitFailure("wall_time_exceeded", this.limits));
    if (this.fatal) this.clock?.stopping();
    return this.fatal !== null;
  }

  /**
   * Runs QuickJS work as the function's own CPU time.
   * @template T
   * @param {() => T} work
   */
  slice(work) {
    return this.clock ? this.clock.measure(work) : work();
  }

  /** Evaluates the eager prelude (prelude/runtime.js) and hands it the host functions. */
  #install() {
    const ctx = this.context;
    this.#internals = ctx.newObject();
    const internals = this.#internals;
    const host = createHostObject(this);
    try {
      const installer = ctx.unwrapResult(ctx.evalCode(this.#engine.prelude.eager, PRELUDE_FILE_NAME, { type: "global", strict: true }));
      installer.consume((fn) => ctx.unwrapResult(ctx.callFunction(fn, ctx.undefined, host, internals)).dispose());
    } finally {
      host.dispose();
    }
  }

  /**
   * Sets the `env` global (the secrets; prelude/runtime.js adds env.KV).
   * @param {string} envJson
   */
  setEnv(envJson) {
    const ctx = this.context;
    const result = ctx.newString(envJson).consume((env) => this.call("setEnv", [env]));
    ctx.unwrapResult(result).dispose();
  }

  /**
   * Calls one of the prelude's entry points (prelude/runtime.js `internals`) as user-code time.
   * @param {string} name
   * @param {QuickJSHandle[]} args
   */
  call(name, args) {
    const ctx = this.context;
    if (!this.#internals) throw new Error("the prelude is not installed");
    const internals = this.#internals;
    return ctx.getProp(internals, name).consume((entry) => this.slice(() => ctx.callFunction(entry, ctx.undefined, ...args)));
  }

  /**
   * Evaluates the function's module and waits for its top level (top-level await included).
   * @param {string} code
   * @returns {Promise<Settled>} the module namespace as the value
   */
  async loadModule(code) {
    const result = this.slice(() => this.context.evalCode(code, FUNCTION_FILE_NAME, { type: "module", strict: true }));
    if (result.error) {
      if (!this.fatal) return { kind: "error", handle: result.error };
      result.error.dispose();
      return { kind: "fatal" };
    }
    return this.settle(result.value);
  }

  /**
   * Drives promise jobs, host answers and timers until `promise` settles or the run must end.
   * Takes ownership of `promise`.
   * @param {QuickJSHandle} promise
   * @returns {Promise<Settled>}
   */
  async settle(promise) {
    try {
      for (;;) {
        this.slice(() => this.#step());
        if (this.fatal) return { kind: "fatal" };
        const state = this.context.getPromiseState(promise);
        if (state.type === "fulfilled") return { kind: "value", handle: state.notAPromise ? promise.dup() : state.value };
        if (state.type === "rejected") return { kind: "error", handle: state.error };
        if (this.hostCalls.pending === 0 && this.#timers.size === 0 && this.#events.length === 0) return { kind: "stuck" };
        await this.#nextEvent();
      }
    } finally {
      promise.dispose();
    }
  }

  /**
   * Why a settled run failed.
   * @param {Exclude<Settled, { kind: "value" }>} settled
   * @returns {Failure}
   */
  failureOf(settled) {
    if (settled.kind === "error") {
      const failure = thrownFailure(this.describe(settled.handle), this.limits, this.memoryRanOut);
      settled.handle.dispose();
      return this.fatal ?? failure;
    }
    return this.fatal ?? NEVER_SETTLES;
  }

  /**
   * What an exception handle says; its getters run as user code, under the limits.
   * @param {QuickJSHandle} handle
   */
  describe(handle) {
    try {
      return this.slice(() => describeThrown(this.context, handle));
    } catch (_unreadable) {
      return { name: "", message: "an exception that could not be read", stack: "" };
    }
  }

  /** @param {HostResult} result an answer from the pool, outside any slice */
  receiveHostResult(result) {
    if (!this.hostCalls.arrived(result)) return;
    this.#events.push({ kind: "host", result });
    this.#signal();
  }

  /**
   * @param {number} id
   * @param {number} delay
   */
  setTimer(id, delay) {
    this.clearTimer(id);
    if (this.#timers.size >= MAX_PENDING_TIMERS) throw new RangeError(`at most ${MAX_PENDING_TIMERS} timers may be pending`);
    // Never past the wall limit (the run ends there anyway), and within what Node's timers accept.
    const ms = Math.min(Math.max(0, delay), this.limits.wallMs + 1000);
    const timer = setTimeout(() => {
      this.#timers.delete(id);
      this.#events.push({ kind: "timer", id });
      this.#signal();
    }, ms);
    this.#timers.set(id, timer);
  }

  /** @param {number} id */
  clearTimer(id) {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  /** @returns {string | null} why the engine can no longer be trusted (the worker is then replaced) */
  dispose() {
    clearTimeout(this.#wallTimer);
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    try {
      this.hostCalls.dispose();
      this.#internals?.dispose();
      this.#quoter?.dispose();
      this.context.dispose();
      this.runtime.dispose();
      return null;
    } catch (error) {
      return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }

  /** One slice of work: the events that arrived, then every promise job they made runnable. */
  #step() {
    const events = this.#events;
    this.#events = [];
    for (const event of events) {
      if (this.fatal) break;
      if (event.kind === "host") this.hostCalls.settle(event.result);
      else this.#fireTimer(event.id);
    }
    if (this.fatal) return;
    const jobs = this.runtime.executePendingJobs();
    if (jobs.error) this.#failWith(jobs.error);
    jobs.dispose();
  }

  /** @param {number} id */
  #fireTimer(id) {
    const ctx = this.context;
    const result = ctx.newNumber(id).consume((handle) => this.call("fireTimer", [handle]));
    if (result.error) this.#failWith(result.error);
    result.dispose();
  }

  /**
   * An exception nothing can catch any more (a timer callback's, a failed job's) ends the run.
   * @param {QuickJSHandle} error not disposed here
   */
  #failWith(error) {
    if (!this.fatal) this.fail(thrownFailure(this.describe(error), this.limits, this.memoryRanOut));
  }

  #nextEvent() {
    if (this.#events.length > 0 || this.fatal) return Promise.resolve();
    return new Promise((resolve) => {
      this.#wake = () => resolve(undefined);
    });
  }

  #signal() {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}
