// @ts-check

/**
 * Calls that cross to the main thread (fetch, env.KV): each gets a QuickJS promise now and is
 * settled later, inside a slice of the run, when the pool's answer arrives. At most MAX_IN_FLIGHT are
 * handed to the pool at a time, so `Promise.all` over thousands of KV reads cannot flood the database;
 * the rest wait here in order.
 */

/** @typedef {import("quickjs-emscripten").QuickJSContext} QuickJSContext */
/** @typedef {import("quickjs-emscripten").QuickJSHandle} QuickJSHandle */
/** @typedef {import("quickjs-emscripten").QuickJSDeferredPromise} QuickJSDeferredPromise */
/** @typedef {import("./protocol.mjs").HostRequest} HostRequest */
/** @typedef {{ call: number, ok: true, value: unknown } | { call: number, ok: false, message: string }} HostResult */
/** @typedef {(ctx: QuickJSContext, value: unknown) => QuickJSHandle} ToHandle */

const MAX_IN_FLIGHT = 16;

export class HostCalls {
  /** @type {QuickJSContext} */ #ctx;
  /** @type {(call: number, request: HostRequest) => void} */ #send;
  /** @type {Map<number, { deferred: QuickJSDeferredPromise, toHandle: ToHandle }>} */ #pending = new Map();
  /** @type {{ call: number, request: HostRequest }[]} */ #waiting = [];
  #inFlight = 0;
  #nextCall = 1;

  /**
   * @param {QuickJSContext} ctx
   * @param {(call: number, request: HostRequest) => void} send
   */
  constructor(ctx, send) {
    this.#ctx = ctx;
    this.#send = send;
  }

  /** Calls not answered yet: while there are some, a pending promise may still settle. */
  get pending() {
    return this.#pending.size;
  }

  /**
   * @param {HostRequest} request
   * @param {ToHandle} toHandle turns the pool's answer into the value the promise resolves with
   * @returns {QuickJSHandle} the promise handed to the code
   */
  start(request, toHandle) {
    const deferred = this.#ctx.newPromise();
    const call = this.#nextCall++;
    this.#pending.set(call, { deferred, toHandle });
    if (this.#inFlight < MAX_IN_FLIGHT) this.#dispatch(call, request);
    else this.#waiting.push({ call, request });
    return deferred.handle;
  }

  /**
   * A promise already rejected with a TypeError (a refused call that never reaches the pool).
   * @param {string} message
   */
  rejected(message) {
    const deferred = this.#ctx.newPromise();
    try {
      this.#ctx.newError({ name: "TypeError", message }).consume((error) => deferred.reject(error));
      return deferred.handle;
    } catch (error) {
      deferred.dispose();
      throw error;
    }
  }

  /**
   * An answer arrived from the pool (outside any slice): frees its in-flight place.
   * @param {HostResult} result
   * @returns {boolean} whether the answer belongs to a call of this run
   */
  arrived(result) {
    if (!this.#pending.has(result.call)) return false;
    this.#inFlight -= 1;
    const next = this.#waiting.shift();
    if (next) this.#dispatch(next.call, next.request);
    return true;
  }

  /**
   * Settles the call's promise; the caller runs promise jobs afterwards.
   * @param {HostResult} result
   */
  settle(result) {
    const entry = this.#pending.get(result.call);
    if (!entry) return;
    this.#pending.delete(result.call);
    const ctx = this.#ctx;
    try {
      const value = result.ok ? entry.toHandle(ctx, result.value) : ctx.newError({ name: "TypeError", message: result.message });
      value.consume((handle) => (result.ok ? entry.deferred.resolve(handle) : entry.deferred.reject(handle)));
    } finally {
      // Settled, or never settleable (the answer could not be built): either way its handles go now.
      entry.deferred.dispose();
    }
  }

  dispose() {
    for (const { deferred } of this.#pending.values()) deferred.dispose();
    this.#pending.clear();
    this.#waiting = [];
  }

  /**
   * @param {number} call
   * @param {HostRequest} request
   */
  #dispatch(call, request) {
    this.#inFlight += 1;
    this.#send(call, request);
  }
}
