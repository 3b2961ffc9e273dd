import type { SandboxLimits } from "./types";

/**
 * Texts of the errors the pool itself reports (a job it had to end from outside, a worker that died);
 * they match the worker's own (worker/errors.mjs), so a run reads the same whichever side ended it.
 */

const MIB = 1024 * 1024;

export function cpuLimitError(limits: SandboxLimits): string {
  return `cpu_limit_exceeded: the function used more than ${limits.cpuMs} ms of CPU time`;
}

export function wallTimeError(limits: SandboxLimits): string {
  return `wall_time_exceeded: the function did not finish within ${limits.wallMs} ms`;
}

export function memoryLimitError(limits: SandboxLimits): string {
  return `memory_limit_exceeded: the function needed more than ${Math.round((limits.memoryBytes / MIB) * 10) / 10} MiB of memory`;
}

export function workerCrashError(detail: string): string {
  return `uncaught_exception: the sandbox stopped while running the function (${detail})`;
}
