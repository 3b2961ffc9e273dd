import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_KEY, E2E_PORT } from "./e2e/env";

/**
 * End-to-end suite against the PRODUCTION build (`next build && next start`) on a fresh embedded
 * PGlite database, driven by Debian's Chromium (no browser downloads on these machines).
 *
 *   npm run e2e                      # build, start on :3100, run e2e/*.spec.ts
 *   SVC_E2E_PORT=3200 npm run e2e    # another port
 *   SVC_E2E_PREBUILT=1 npm run e2e   # serve the build already made (npm run build), do not build again
 *   SVC_E2E_KEEP_DATA=1 npm run e2e  # keep the temp data folder (its path is in SVC_E2E_DATA_DIR)
 *   SVC_E2E_PORT=3201 SVC_NEXT_DIST_DIR=.next-e2e-b npx playwright test e2e/inbox.spec.ts --output=e2e/artifacts/results-b --reporter=list
 *                                    # a second suite beside the first (own port, build folder and results folder;
 *                                    # next build then adds that folder to tsconfig.json's include: do not commit that)
 */

// A fresh embedded database per run. This file is evaluated again in every worker: the env var makes
// them reuse the folder the main process created (and the server uses) rather than make new ones.
// The process that created it removes it on exit, after Playwright has stopped the server.
if (!process.env.SVC_E2E_DATA_DIR) {
  const created = fs.mkdtempSync(path.join(os.tmpdir(), "svc-e2e-"));
  process.env.SVC_E2E_DATA_DIR = created;
  if (process.env.SVC_E2E_KEEP_DATA !== "1") process.on("exit", () => fs.rmSync(created, { recursive: true, force: true }));
}
const dataDir = process.env.SVC_E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${E2E_PORT}`;
const chromiumPath = process.env.SVC_E2E_CHROMIUM || "/usr/bin/chromium";

export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  // Relative paths here resolve against this file's folder (works whether package.json says ESM or not).
  outputDir: "./e2e/artifacts/results",
  fullyParallel: false,
  // One browser in CI: two, beside the fault suite, failed specs and the fault suite's latency limits
  // on this 2-core machine; and channels belong to the organization every spec's project is in, so a
  // spec that connects a number changes what a spec beside it sees. SVC_E2E_WORKERS sets it either way.
  workers: Number(process.env.SVC_E2E_WORKERS || (process.env.CI ? 1 : 2)),
  forbidOnly: !!process.env.CI,
  // A failed test runs once more with a trace recorded (recording every test's trace cost a third of
  // the suite's time); failOnFlakyTests keeps a pass on that second try a failure of the run.
  retries: 1,
  failOnFlakyTests: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { outputFolder: "./e2e/artifacts/report", open: "never" }]],
  use: {
    baseURL,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], headless: true } }],
  webServer: {
    // SVC_E2E_PREBUILT=1 serves the production build already in the dist folder (CI builds once for
    // this suite and the fault suite); otherwise it is built first.
    command: `${process.env.SVC_E2E_PREBUILT === "1" ? "" : "npm run build && "}npm start -- --port ${E2E_PORT} --hostname 127.0.0.1`,
    url: `${baseURL}/api/v1/openapi.json`,
    // Always our own fresh production server: a reused dev server would have another key and database.
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(E2E_PORT),
      SVC_BOOTSTRAP_KEY: E2E_KEY,
      SVC_ADMIN_EMAIL: E2E_ADMIN_EMAIL,
      SVC_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      // The specs run their own webhook receivers on loopback.
      SVC_ALLOW_PRIVATE_NETWORK: "true",
      // The specs act as customers through /api/simulator/customer/... directly (closed in production otherwise).
      SVC_SIMULATOR_PUBLIC: "true",
      NEXTAUTH_URL: baseURL,
      SVC_DATA_DIR: dataDir,
      SVC_PUBLIC_URL: baseURL,
      // Empty = unset for lib/config.ts: embedded PGlite and the in-process limiter.
      DATABASE_URL: "",
      REDIS_URL: "",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
