import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The slow tests: each starts real processes (the CLI, the simulator, a standalone worker, a child
 * with its own Postgres connection), runs user code against the sandbox's CPU, memory and log limits,
 * or sends a broadcast of thousands. `npm test` runs everything; SVC_TESTS=slow (`npm run test:slow`)
 * only these, SVC_TESTS=fast (`npm run test:fast`) all the others. A selection rather than vitest
 * projects: each project would import the app again in workers of its own.
 */
const SLOW = [
  "tests/acceptance/issue-17.test.ts",
  "tests/acceptance/issue-20.test.ts",
  "tests/cli-login/cli.test.ts",
  "tests/config/cli.test.ts",
  "tests/db/postgres-guard.test.ts",
  "tests/sdk/http.test.ts",
  "tests/sdk/package.test.ts",
  "tests/simulator/standalone.test.ts",
  "tests/webhooks/listen.test.ts",
  "tests/webhooks/standalone-worker.test.ts",
  "tests/sandbox/**/*.test.ts",
  "tests/functions/abuse-api.test.ts",
  "tests/broadcasts/scale.test.ts",
  "tests/server/graceful-shutdown.test.ts",
];

const selection = process.env.SVC_TESTS;
if (selection !== undefined && selection !== "slow" && selection !== "fast") throw new Error(`SVC_TESTS is "slow", "fast" or unset, not "${selection}"`);

export default defineConfig({
  // @svc/sdk is its source here, as tsconfig.json's paths make it for tsc, tsx and Next: the package's
  // exports name dist/, which only `npm pack` builds (packages/sdk/README.md, "In this repository").
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "@svc/sdk": path.resolve(import.meta.dirname, "packages/sdk/src/index.ts") } },
  test: {
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/file-isolation.ts"],
    env: {
      // The AWS SDK warns once per process that its releases from 2027 on need Node 22: not news here.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    pool: "forks",
    // Files share their worker's module graph: importing the app once per worker instead of once per
    // file was most of the suite's time (README "Tests"). tests/support/file-isolation.ts fails a file
    // that leaves the environment changed.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two workers on this 2-core machine: more only queue behind the same cores (the suite is CPU-bound).
    maxWorkers: 2,
    include: selection === "slow" ? SLOW : ["tests/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...(selection === "fast" ? SLOW : [])],
  },
});
