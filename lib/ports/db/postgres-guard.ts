/**
 * Keeps a process alive through a known postgres-js defect, and tells "the database is unreachable"
 * apart from every other failure.
 *
 * The defect (postgres@3.4.9, the newest release; upstream porsager/postgres issues 1154 and 1208):
 * a write shorter than 1 KiB is deferred with setImmediate; when the server closes the connection
 * first (a restart, pg_terminate_backend), the deferred write dereferences the nulled socket and
 * throws from the immediate, outside any await, so the process dies. patches/postgres+3.4.9.patch
 * (applied by patch-package on install) fixes it in the driver; this guard is for an install that
 * skipped the patch (npm --ignore-scripts), where the write cannot reach anyone and dropping it loses
 * nothing. A second query sent on a *reserved* connection in that state is queued behind the first
 * and never answers, patched or not, so the one caller of reserve() bounds its wait (lib/ports/queue,
 * pg-boss's scripts). tests/db/postgres-guard.test.ts shows the patched driver rejects instead.
 */

let installed = false;

export function isDeadSocketWrite(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /reading 'write'/.test(error.message) &&
    /\bnextWrite\b/.test(error.stack ?? "") &&
    /[\\/]postgres[\\/]/.test(error.stack ?? "")
  );
}

/** Installs the guard once per process. Any other uncaught exception still ends the process. */
export function installPostgresWriteGuard(): void {
  if (installed) return;
  installed = true;
  process.on("uncaughtException", function guard(error) {
    if (isDeadSocketWrite(error)) {
      console.warn("[db] a connection closed under a pending write (postgres-js); its query was already rejected, carrying on");
      return;
    }
    // Another listener (a framework's) decides; alone, behave as Node does without one.
    if (process.listeners("uncaughtException").some((listener) => listener !== guard)) return;
    console.error(error);
    process.exit(1);
  });
}

/** postgres-js's own connection error codes, and the SQLSTATEs of a server that is going or not there. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const UNAVAILABLE_SQLSTATES = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
  "53300", // too_many_connections
]);

/** SQLSTATE query_canceled: a statement ran past our statement_timeout (open.ts). */
const STATEMENT_TIMEOUT = "57014";

/**
 * Why the database failed `error` (or its cause), when it did: it could not be reached ("unreachable")
 * or a statement ran past its time ("timed_out"). Null for any other error.
 */
export function databaseFailureOf(error: unknown): "unreachable" | "timed_out" | null {
  // Our own errors carry codes too (an outbound ECONNREFUSED is the customer's server, not ours).
  if (error && typeof error === "object" && Symbol.for("svc.error-kind") in error) return null;
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (code === STATEMENT_TIMEOUT) return "timed_out";
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08")) return "unreachable";
  }
  return null;
}

/** True when `error` (or its cause) says the database cannot be reached or stopped answering in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseFailureOf(error) !== null;
}
