import { readFileSync } from "node:fs";

/**
 * Milliseconds a worker thread of this process has run on a CPU, read from outside it
 * (/proc/self/task/<tid>/schedstat, the file the worker reads as /proc/thread-self/schedstat in
 * worker/thread-clock.mjs); null where there is no such file.
 */
export function threadCpuMs(tid: number): number | null {
  try {
    const text = readFileSync(`/proc/self/task/${tid}/schedstat`, "latin1");
    const first = text.slice(0, text.indexOf(" "));
    return /^\d+$/.test(first) ? Number(first) / 1e6 : null;
  } catch {
    return null;
  }
}
