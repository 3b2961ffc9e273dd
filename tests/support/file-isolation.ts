import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll } from "vitest";
import { restartIdSequence } from "@/lib/ids";

// What Next's server gives every process it runs (next/dist/server/node-environment-baseline). A file
// that imports next/server without it leaves Next's request-scoped stores as stand-ins that throw
// "AsyncLocalStorage accessed in runtime where it is not available", and Next's patches of shared
// globals then threw in whichever later file of the worker reached them (contacts/erase-files did).
const runtimeGlobals = globalThis as typeof globalThis & { AsyncLocalStorage?: typeof AsyncLocalStorage };
runtimeGlobals.AsyncLocalStorage ??= AsyncLocalStorage;

/**
 * Test files share a worker's module graph (vitest `isolate: false`, vitest.config.ts), so whatever a
 * file leaves in process-wide state reaches the files after it. Settings go through the runtime
 * (createTestApp's `settings`), never process.env; a file that changes the environment must put it
 * back. This runs around every file and fails the one that did not, naming the variables, after
 * restoring them so the next file starts clean.
 */
const before = { ...process.env };

// A file's ids start where a new process's would, not in the future an earlier file's clock left.
restartIdSequence();

afterAll(() => {
  const changed = new Set([...Object.keys(before), ...Object.keys(process.env)].filter((name) => process.env[name] !== before[name]));
  if (changed.size === 0) return;
  for (const name of changed) {
    if (before[name] === undefined) delete process.env[name];
    else process.env[name] = before[name];
  }
  throw new Error(
    `this file changed process.env and did not restore it: ${[...changed].sort().join(", ")}. Pass settings to createTestApp instead, or restore them in afterEach.`,
  );
});
