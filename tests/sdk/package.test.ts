/**
 * @svc/sdk as a user gets it from the registry: `npm pack` in packages/sdk (its prepack builds dist/),
 * the tarball installed into a scratch project outside the workspace (its dependency openapi-fetch
 * from the npm cache or the registry), compiled there by tsc (strict, nodenext) and run with node
 * against a real HTTP server of the app. A second file with deliberate type errors must fail tsc, so
 * the types really reach the consumer.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startTestServer, type TestServer } from "../support/http-server";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SDK_DIR = path.join(ROOT, "packages", "sdk");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");

let app: TestApp;
let server: TestServer;
let seeded: Seeded;
let scratch: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A child process, with none of the npm_* variables `npm test` puts in this one: npm_config_local_prefix
 * would point the scratch project's `npm install` at the workspace.
 */
function run(file: string, args: string[], cwd: string): Promise<Run> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^npm_/i.test(name) || name === "INIT_CWD") delete env[name];
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

function ok(result: Run, what: string): Run {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * The scratch project's install: the tarball, and openapi-fetch from the npm cache (the registry when
 * the cache lacks it). Without a registry and a cache, the workspace's own copies of openapi-fetch and
 * its one dependency, packed the same way, stand in for the registry: same versions, still --offline.
 */
async function install(tarball: string): Promise<void> {
  const flags = ["--no-audit", "--no-fund", "--ignore-scripts", "--fetch-retries=0", "--fetch-timeout=15000"];
  const first = await run("npm", ["install", tarball, "--prefer-offline", ...flags], scratch);
  if (first.code === 0) return;
  const local: string[] = [];
  for (const name of ["openapi-fetch", "openapi-typescript-helpers"]) {
    const packed = ok(
      await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], path.join(ROOT, "node_modules", name)),
      `npm pack ${name}`,
    );
    local.push(path.join(scratch, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename));
  }
  ok(
    await run("npm", ["install", tarball, ...local, "--offline", ...flags], scratch),
    `npm install (offline, after: ${first.stderr.trim().split("\n").at(-1)})`,
  );
}

beforeAll(async () => {
  app = await createTestApp();
  server = await startTestServer(() => app.runtime);
  seeded = await app.seed({ projectName: "SDK consumer" });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "svc-sdk-consumer-"));
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("@svc/sdk, packed and installed outside the workspace", () => {
  it("packs JavaScript and declarations, installs, compiles under strict nodenext and makes a typed call to a live server", async () => {
    const packed = ok(await run("npm", ["pack", "--json", "--pack-destination", scratch], SDK_DIR), "npm pack");
    // Lifecycle output (prepack's build) comes before the JSON report.
    const [report] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string; files: { path: string }[] }[];
    const files = report!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(["package.json", "README.md", "openapi.json", "dist/index.js", "dist/index.d.ts", "dist/schema.d.ts", "dist/client.js"]),
    );
    expect(files.filter((f) => !f.startsWith("dist/") && !["package.json", "README.md", "openapi.json"].includes(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);

    fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "sdk-consumer", private: true, type: "module" }));
    await install(path.join(scratch, report!.filename));
    const installed = JSON.parse(fs.readFileSync(path.join(scratch, "node_modules", "@svc", "sdk", "package.json"), "utf8")) as { exports: unknown };
    expect(installed.exports).toMatchObject({ ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } });
    expect(fs.existsSync(path.join(scratch, "node_modules", "openapi-fetch", "package.json"))).toBe(true);

    const compilerOptions = {
      target: "ES2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      lib: ["ES2022", "DOM"],
      types: [],
      strict: true,
      // The SDK's declarations are checked too (only TypeScript's own lib files are skipped): they must hold under strict.
      skipDefaultLibCheck: true,
      outDir: "out",
    };
    fs.writeFileSync(path.join(scratch, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }));
    fs.writeFileSync(
      path.join(scratch, "tsconfig.bad.json"),
      JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true, skipLibCheck: true }, files: ["bad.ts"] }),
    );
    // The server and key are written into the program: without @types/node it has no process.env.
    fs.writeFileSync(
      path.join(scratch, "main.ts"),
      `import { createSvcClient, SvcApiError, unwrap, type Schema } from "@svc/sdk";

const baseUrl = ${JSON.stringify(`${server.url}/api/v1`)};
const svc = createSvcClient({ apiKey: ${JSON.stringify(seeded.key)}, baseUrl });
const identity: Schema<"Identity"> = await unwrap(svc.GET("/identity"));

const stranger = createSvcClient({ apiKey: "svc_live_not_a_key", baseUrl, maxRetries: 0 });
const refused = await unwrap(stranger.GET("/identity")).catch((error: unknown) => error);
if (!SvcApiError.is(refused)) throw new Error("expected an SvcApiError");

console.log(JSON.stringify({ identity, refused: { status: refused.status, code: refused.code } }));
`,
    );
    fs.writeFileSync(
      path.join(scratch, "bad.ts"),
      `import { createSvcClient, unwrap } from "@svc/sdk";

const svc = createSvcClient({ apiKey: "svc_live_x" });
const identity = await unwrap(svc.GET("/identity"));
const projectId: number = identity.project.id;
await svc.GET("/identiti", {});
await svc.POST("/messages", { body: { channel_id: "ch_sandbox", conversation_id: "conv_1", text: 42 } });
export { projectId };
`,
    );

    // Both compiles at once: the second only has to fail.
    const [compiled, bad] = await Promise.all([
      run(process.execPath, [TSC, "-p", "tsconfig.json"], scratch),
      run(process.execPath, [TSC, "-p", "tsconfig.bad.json"], scratch),
    ]);
    ok(compiled, "tsc");
    const output = ok(await run(process.execPath, ["out/main.js"], scratch), "node out/main.js");
    const answer = JSON.parse(output.stdout) as { identity: { object: string; project: { id: string }; api_key: { id: string } }; refused: unknown };
    expect(answer.identity).toMatchObject({ object: "identity", project: { id: seeded.projectId }, api_key: { id: seeded.keyId } });
    expect(answer.refused).toEqual({ status: 401, code: "invalid_api_key" });

    expect(bad.code).not.toBe(0);
    const errors = bad.stdout.split("\n").filter((line) => line.startsWith("bad.ts("));
    // The answer's type (project.id is a string), the paths (no /identiti) and the body (text is a string) all reach the consumer.
    expect(
      errors.map((line) => /^bad\.ts\((\d+),\d+\): error (TS\d+)/.exec(line)?.slice(1, 3)),
      bad.stdout,
    ).toEqual([
      ["5", "TS2322"],
      ["6", "TS2345"],
      ["7", "TS2322"],
    ]);
    expect(errors[1]).toContain(`'"/identiti"'`);
  }, 120_000);
});
