import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
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
    maxWorkers: 2,
  },
});
