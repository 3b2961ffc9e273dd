// @ts-check
import { readFileSync } from "node:fs";
import { URL } from "node:url";

/**
 * The JavaScript evaluated inside QuickJS around the function's module (prelude/*.js). Each file is
 * one function expression `(host, internals) => void`. runtime.js runs for every run; the others
 * are groups compiled only when a run first reads one of their globals (runtime.js LAZY_GLOBALS).
 */

/** @typedef {{ eager: string, groups: Record<string, string> }} PreludeSources */

const EAGER_FILE = "runtime.js";
const GROUP_FILES = { encoding: "encoding.js", url: "url.js", http: "http.js", console: "console.js", timers: "timers.js", crypto: "crypto.js" };

/** File name the eager prelude is evaluated under (error stacks show it instead of the function's). */
export const PRELUDE_FILE_NAME = "svc-prelude.js";

/** @param {string} file */
function readPreludeFile(file) {
  return readFileSync(new URL(`./prelude/${file}`, import.meta.url), "utf8")
    .trim()
    .replace(/;$/, "");
}

/** @returns {PreludeSources} */
export function loadPreludeSources() {
  /** @type {Record<string, string>} */
  const groups = {};
  for (const [name, file] of Object.entries(GROUP_FILES)) groups[name] = readPreludeFile(file);
  return { eager: readPreludeFile(EAGER_FILE), groups };
}
