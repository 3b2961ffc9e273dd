/**
 * Acceptance check for README.md's "Try the sandbox" block under `next dev`, the way a newcomer meets
 * it: a fresh data dir and a fresh dist dir (nothing compiled yet), the block pasted the moment the
 * secret key is printed. The block is read from README.md itself, so the check fails when the README
 * drifts; the only edits are the two a reader makes: the printed key in place of `svc_live_...`, and
 * this run's port in place of 3000. Passes when the block's own last output (the tester's inbox) holds
 * "Hi! 👋" and nothing in it says the join or the send failed.
 *
 * Heavy (next dev compiles the app): run it under the machine's heavy lock.
 *   npm run check:readme-dev
 *   SVC_README_CHECK_PORT=3211 SVC_NEXT_DIST_DIR=.next-simdev npm run check:readme-dev
 * Prints the timings: dev start → key printed, and how long the block took.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.SVC_README_CHECK_PORT || 3210);
const DIST_DIR = process.env.SVC_NEXT_DIST_DIR || ".next-readme-dev";
const KEY_TIMEOUT_MS = 10 * 60_000;
// next dev compiles each route the block reaches on its first request: in CI this runs at the lowest
// CPU priority beside Playwright and the fault suite's waiting scenarios, where that took 3 minutes.
// The check is that the block works as pasted, not how fast a starved dev server compiles.
const BLOCK_TIMEOUT_MS = 6 * 60_000;
const KEY_LINE = /Secret API key \(shown once\): (svc_live_\w+)/;

/** The first ```bash block after the "Try the sandbox" heading. */
export function sandboxBlock(readme: string): string {
  const heading = readme.indexOf("### Try the sandbox");
  if (heading < 0) throw new Error('README.md has no "### Try the sandbox" section');
  const match = /```bash\n([\s\S]*?)```/.exec(readme.slice(heading));
  if (!match?.[1]) throw new Error('README.md\'s "Try the sandbox" section has no ```bash block');
  return match[1];
}

/** What a reader changes before pasting: the key they were shown, and (here) the port. */
export function asPasted(block: string, key: string, port: number): string {
  if (!block.includes("KEY=svc_live_...")) throw new Error("the sandbox block no longer starts from KEY=svc_live_... (update this check with the README)");
  return block.replace("KEY=svc_live_...", `KEY=${key}`).replaceAll("localhost:3000", `localhost:${port}`);
}

/** The texts of the inbox the block prints last (curl -s prints bodies back to back, without newlines). */
function inboxTexts(stdout: string): (string | null)[] {
  const at = stdout.lastIndexOf('{"object":"list"');
  if (at < 0) return [];
  try {
    return ((JSON.parse(stdout.slice(at).trim()) as { data: { text: string | null }[] }).data ?? []).map((m) => m.text);
  } catch {
    return [];
  }
}

function devEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // A newcomer's shell: none of the settings that would skip the first-run path or point elsewhere.
  for (const name of Object.keys(env)) {
    if (/^(SVC_|PLATFORM_[ABC]_|PROVIDER_GRAPH_URL$|NEXTAUTH_|NODE_ENV$|__NEXT)/.test(name)) delete env[name];
  }
  return {
    ...env,
    PORT: String(PORT),
    SVC_DATA_DIR: dataDir,
    SVC_NEXT_DIST_DIR: DIST_DIR,
    DATABASE_URL: "",
    REDIS_URL: "",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    const pid = child.pid;
    // next dev runs its server in a child process: signal the group this check started (its own).
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-pid, name);
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => signal("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    signal("SIGTERM");
  });
}

class CheckFailed extends Error {}

function fail(message: string, output: string): never {
  throw new CheckFailed(`readme-dev-check: FAILED: ${message}\n--- next dev (last lines) ---\n${output.split("\n").slice(-40).join("\n")}`);
}

async function main(): Promise<void> {
  const block = sandboxBlock(fs.readFileSync(path.join(ROOT, "README.md"), "utf8"));
  const distPath = path.resolve(ROOT, DIST_DIR);
  if (!path.basename(distPath).startsWith(".next") || path.dirname(distPath) !== ROOT)
    throw new Error(`SVC_NEXT_DIST_DIR must be a .next* folder of the repo, not ${DIST_DIR}`);
  // A first start compiles everything: no dist dir left from an earlier run.
  fs.rmSync(distPath, { recursive: true, force: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "svc-readme-dev-"));
  // next dev adds its dist dir's types to tsconfig.json: put the file back as it was afterwards.
  const tsconfig = fs.readFileSync(path.join(ROOT, "tsconfig.json"), "utf8");

  const started = Date.now();
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "dev", "-p", String(PORT)], {
    cwd: ROOT,
    env: devEnv(path.join(tmp, "data")),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const cleanup = async () => {
    await stop(child);
    if (fs.readFileSync(path.join(ROOT, "tsconfig.json"), "utf8") !== tsconfig) fs.writeFileSync(path.join(ROOT, "tsconfig.json"), tsconfig);
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));

  try {
    let key: string | null = null;
    while (!key) {
      if (child.exitCode !== null) fail(`next dev exited (${child.exitCode}) before printing a key`, output);
      if (Date.now() - started > KEY_TIMEOUT_MS) fail(`no key printed within ${KEY_TIMEOUT_MS / 1000} s`, output);
      key = KEY_LINE.exec(output)?.[1] ?? null;
      if (!key) await new Promise((r) => setTimeout(r, 20));
    }
    const keyAt = Date.now();
    console.log(`readme-dev-check: key printed ${((keyAt - started) / 1000).toFixed(1)} s after next dev started; pasting the block`);

    const run = spawnSync("bash", ["-c", asPasted(block, key, PORT)], { cwd: tmp, encoding: "utf8", timeout: BLOCK_TIMEOUT_MS });
    const blockSeconds = ((Date.now() - keyAt) / 1000).toFixed(1);
    const stdout = run.stdout ?? "";
    console.log(
      `readme-dev-check: the block ran in ${blockSeconds} s (exit ${run.status}); its output:\n${stdout}${run.stderr ? `\n(stderr) ${run.stderr}` : ""}`,
    );

    const problems: string[] = [];
    if (run.status !== 0) problems.push(`the block exited ${run.status}`);
    for (const sign of ["Could not reach", "not_found", '"error":{']) if (stdout.includes(sign)) problems.push(`its output says ${sign}`);
    if (!inboxTexts(stdout).includes("Hi! 👋")) problems.push('the inbox it printed last does not hold "Hi! 👋"');
    if (problems.length) fail(problems.join("; "), output);
    console.log(`readme-dev-check: OK (first dev start to key: ${((keyAt - started) / 1000).toFixed(1)} s; the block: ${blockSeconds} s)`);
  } finally {
    await cleanup();
  }
}

try {
  await main();
} catch (error) {
  console.error(error instanceof CheckFailed ? error.message : error);
  process.exitCode = 1;
}
