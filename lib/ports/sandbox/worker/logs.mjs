// @ts-check
import { Buffer } from "node:buffer";
import { performance } from "node:perf_hooks";

/**
 * The run's console, limited to `logLines` lines and `logBytes` bytes of messages (decisions.md
 * "Hosted functions", README "Hosted functions"). One rule whatever the shape of the output: whatever
 * does not fit is dropped (a line that crosses the limit is cut, a line too long to cross from QuickJS
 * whole was cut there), the run carries on, and the outcome reports `log_limit_exceeded` unless
 * another failure came. Each kept line goes to the pool at once, so the lines logged before a run had
 * to be killed are not lost with its worker.
 */

const LEVELS = new Set(["log", "info", "warn", "error", "debug"]);

/**
 * The longest prefix of `text` that fits in `maxBytes` of UTF-8 without splitting a character.
 * @param {string} text
 * @param {number} maxBytes
 */
function utf8Prefix(text, maxBytes) {
  const bytes = Buffer.from(text, "utf8");
  let end = Math.max(0, maxBytes);
  while (end > 0 && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

export class LogBuffer {
  #maxLines;
  #maxBytes;
  #startedAt;
  #emit;
  #lines = 0;
  #bytes = 0;
  truncated = false;

  /**
   * @param {{ logLines: number, logBytes: number }} limits
   * @param {number} startedAt performance.now() at the start of the run
   * @param {(line: { level: string, message: string, at_ms: number }) => void} emit
   */
  constructor(limits, startedAt, emit) {
    this.#maxLines = limits.logLines;
    this.#maxBytes = limits.logBytes;
    this.#startedAt = startedAt;
    this.#emit = emit;
  }

  /**
   * @param {string} level
   * @param {string} message
   * @param {number} [length] the line's length as logged, when `message` is only its beginning
   */
  add(level, message, length = message.length) {
    if (length > message.length) this.truncated = true;
    if (this.#lines >= this.#maxLines || this.#bytes >= this.#maxBytes) {
      this.truncated = true;
      return;
    }
    let size = Buffer.byteLength(message, "utf8");
    if (this.#bytes + size > this.#maxBytes) {
      this.truncated = true;
      message = utf8Prefix(message, this.#maxBytes - this.#bytes);
      size = Buffer.byteLength(message, "utf8");
    }
    this.#lines += 1;
    this.#bytes += size;
    const at_ms = Math.round(performance.now() - this.#startedAt);
    this.#emit({ level: LEVELS.has(level) ? level : "log", message, at_ms });
  }

  /** The `log_limit_exceeded` detail, or null when nothing was dropped. */
  limitError() {
    if (!this.truncated) return null;
    return `log_limit_exceeded: logs are limited to ${this.#maxLines} lines and ${this.#maxBytes} bytes per run; later output was dropped`;
  }
}
