// Evaluated inside QuickJS the first time a run touches `console` (see ../prelude.mjs). A line crosses
// to the host at most MAX_LOG_CHARS long, with its full length: the host applies the log limits
// (../logs.mjs) and knows what was cut.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- an expression: ../prelude.mjs evaluates the file for this function
(function installConsole(host, internals) {
  "use strict";

  const MAX_LOG_CHARS = 65536;
  // Taken by runtime.js before the function's code ran, which may have replaced any of them since.
  const { apply, toText, stringSlice } = internals.intrinsics;

  function formatValue(value) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (value === undefined || typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") return String(value);
    const seen = new WeakSet();
    const json = JSON.stringify(value, (_key, item) => {
      if (typeof item === "bigint") return `${item}n`;
      if (typeof item === "function") return `[Function ${item.name || "anonymous"}]`;
      if (item instanceof Error) return `${item.name}: ${item.message}`;
      if (item !== null && typeof item === "object") {
        if (seen.has(item)) return "[Circular]";
        seen.add(item);
      }
      return item;
    });
    return json === undefined ? String(value) : json;
  }

  function logger(level) {
    return function (...args) {
      const message = toText(args.map(formatValue).join(" "));
      const length = message.length;
      host.log(level, length > MAX_LOG_CHARS ? apply(stringSlice, message, [0, MAX_LOG_CHARS]) : message, length);
    };
  }

  const console = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = logger(level);
  console.trace = console.debug;
  internals.defineGlobals({ console });
});
