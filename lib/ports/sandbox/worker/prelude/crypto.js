// Evaluated inside QuickJS the first time a run touches `crypto` (see ../prelude.mjs): randomUUID and
// getRandomValues, whose bytes come from the worker (host.randomUUID, host.randomBytes).
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- an expression: ../prelude.mjs evaluates the file for this function
(function installCrypto(host, internals) {
  "use strict";

  const MAX_RANDOM_BYTES = 65536;

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
  internals.defineGlobals({ crypto });
});
