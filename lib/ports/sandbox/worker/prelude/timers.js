// Evaluated inside QuickJS the first time a run touches setTimeout, setInterval, clearTimeout or
// clearInterval (see ../prelude.mjs). The worker keeps the real timers (host.setTimer) and fires them
// through internals.fireTimer; none can be pending before this file ran.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- an expression: ../prelude.mjs evaluates the file for this function
(function installTimers(host, internals) {
  "use strict";

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

  internals.defineGlobals({
    setTimeout: (callback, delay, ...args) => startTimer(callback, delay, args, false),
    setInterval: (callback, delay, ...args) => startTimer(callback, delay, args, true),
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
  });
});
