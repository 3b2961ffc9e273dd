/**
 * OpenAPI lint: builds the document in-process from the route registry (the same code that serves
 * GET /api/v1/openapi.json), writes it to a temp file and runs Redocly CLI's `lint` on it.
 * Exit code: non-zero when Redocly reports any error (warnings are printed, not fatal).
 *
 *   npm run lint:openapi            # lint
 *   npm run lint:openapi -- --keep  # also keep the generated file and print its path
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { apiRoutes } from "@/lib/api/registry";

function main(): number {
  const root = projectRoot();
  const keep = process.argv.includes("--keep");
  const doc = buildOpenApiDocument(apiRoutes) as { openapi?: string; paths?: Record<string, unknown> };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-openapi-"));
  const file = path.join(dir, "openapi.json");
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
  const operations = Object.values(doc.paths ?? {}).reduce<number>((n, item) => n + Object.keys(item as object).length, 0);
  console.log(`openapi-lint: OpenAPI ${doc.openapi} document, ${Object.keys(doc.paths ?? {}).length} paths, ${operations} operations -> ${file}`);

  const config = path.join(root, "redocly.yaml");
  const bin = path.join(root, "node_modules", ".bin", process.platform === "win32" ? "redocly.cmd" : "redocly");
  const args = ["lint", file, "--format=json", ...(fs.existsSync(config) ? [`--config=${config}`] : [])];
  // The local binary when installed (npm ci); `npx @redocly/cli` otherwise.
  const [command, commandArgs] = fs.existsSync(bin) ? [bin, args] : ["npx", ["--no-install", "@redocly/cli", ...args]];
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    // JSON report on stdout (parsed below); Redocly's own banners and summary go to stderr as usual.
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      // The machine reaches only the npm registry: no telemetry, no update checks.
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SDK_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
      REDOCLY_SUPPRESS_NOTIFICATIONS: "true",
      DO_NOT_TRACK: "1",
    },
    timeout: 5 * 60_000,
  });
  if (keep) console.log(`openapi-lint: kept ${file}`);
  else fs.rmSync(dir, { recursive: true, force: true });
  if (result.error) {
    console.error(`openapi-lint: could not run Redocly CLI: ${result.error.message}`);
    return 2;
  }

  let report: LintReport | null = null;
  try {
    report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as LintReport;
  } catch {
    process.stdout.write(result.stdout);
  }
  if (report) {
    // One line per problem: severity, rule, JSON pointer into the document, message.
    for (const p of report.problems) {
      const where = p.location?.[0]?.pointer ?? "#";
      console.log(`  ${p.severity === "error" ? "ERROR  " : p.severity === "warn" ? "warning" : p.severity}  ${p.ruleId}  ${where}  ${p.message}`);
    }
    console.log(
      `openapi-lint: redocly ${report.version}: ${report.totals.errors} error(s), ${report.totals.warnings} warning(s), ${report.totals.ignored} ignored`,
    );
  }
  if (result.status !== 0 || !report || report.totals.errors > 0) {
    console.error(`openapi-lint: FAILED (redocly exit ${result.status ?? result.signal})`);
    return result.status || 1;
  }
  console.log("openapi-lint: OK (no errors)");
  return 0;
}

/** The folder with package.json at or above the working directory (npm runs scripts from there). */
function projectRoot(): string {
  let dir = process.cwd();
  while (!fs.existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  version: string;
  problems: { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] }[];
}

async function run() {
  process.exitCode = main();
}

run().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
