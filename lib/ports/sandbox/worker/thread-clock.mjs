// @ts-check
import { Buffer } from "node:buffer";
import { openSync, readSync, readlinkSync } from "node:fs";

/**
 * The CPU time of this worker thread. Node 20 has no per-thread CPU clock (process.cpuUsage is the
 * whole process's, process.threadCpuUsage arrived in 23.9), but Linux publishes each thread's time on a
 * CPU in /proc/thread-self/schedstat. Time the thread waits for a core (a busy machine, the other
 * workers, the app's own threads) is not in it, so a function is held to the CPU it used, not to how
 * loaded the host was while it ran.
 *
 * Elsewhere (no /proc) `null`: the clock then measures elapsed time, which can only be stricter.
 */

/** @typedef {{ tid: number; readMs: () => number }} ThreadClock */

/** @type {ThreadClock | null | undefined} */
let opened;

/** @returns {ThreadClock | null} */
export function threadClock() {
  if (opened === undefined) opened = open();
  return opened;
}

/** @returns {ThreadClock | null} */
function open() {
  try {
    // "<pid>/task/<tid>": the pool reads the same file as /proc/self/task/<tid>/schedstat from outside.
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    const fd = openSync("/proc/thread-self/schedstat", "r");
    const buffer = Buffer.alloc(96);
    const readMs = () => threadCpuMsOf(buffer.toString("latin1", 0, readSync(fd, buffer, 0, buffer.length, 0)));
    if (!Number.isInteger(tid) || tid <= 0 || !Number.isFinite(readMs())) return null;
    return { tid, readMs };
  } catch {
    return null;
  }
}

/**
 * Milliseconds on a CPU from a schedstat's text ("<ns on a cpu> <ns waiting for one> <timeslices>");
 * NaN when the text is not that. lib/ports/sandbox/thread-cpu.ts reads the same file from the pool.
 * @param {string} text
 */
function threadCpuMsOf(text) {
  const first = text.slice(0, text.indexOf(" "));
  return /^\d+$/.test(first) ? Number(first) / 1e6 : Number.NaN;
}
