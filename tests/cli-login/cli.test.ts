import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/lib/db/schema";
import { dispatch } from "@/lib/api/router";
import { handleCli } from "@/lib/cli-api/routes";
import { approveDeviceCode, denyDeviceCode } from "@/lib/domain/cli-login";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, type Operator } from "../dashboard/support";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

let app: TestApp;
let acme: Seeded;
let dev: Operator;
let server: http.Server;
let base: string;
let home: string;

/** The app's /api/v1 and /api/cli over real HTTP. The app's clock follows the wall clock, so the CLI's real 2 s polls pace right. */
async function startServer(): Promise<void> {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", base);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(url, { method: req.method, headers, body: req.method === "GET" ? undefined : Buffer.concat(chunks) });
    app.clock.set(Date.now());
    const response = url.pathname.startsWith("/api/cli")
      ? await handleCli(request, url.pathname.slice("/api/cli".length) || "/", app.runtime)
      : url.pathname.startsWith("/api/v1")
        ? await dispatch(request, url.pathname.slice("/api/v1".length) || "/", app.runtime)
        : new Response("Not found", { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed({ projectName: "CLI login" });
  dev = await addOperator(app, acme, "developer");
  await startServer();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "svc-cli-login-"));
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await app?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const configHome = () => path.join(home, "config");
const credentialsFile = () => path.join(configHome(), "svc", "credentials.json");
const cliEnv = (extra: Record<string, string> = {}) => ({
  ...process.env,
  NO_COLOR: "1",
  SVC_API_URL: "",
  SVC_API_KEY: "",
  HOME: home,
  XDG_CONFIG_HOME: configHome(),
  ...extra,
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "cli/index.ts", ...args],
      { cwd: process.cwd(), env: cliEnv(env), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** `login` in its own process; `decide` runs once the user code is on its stdout. */
function login(decide: (userCode: string) => Promise<unknown>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/index.ts", "login", "--url", base], { cwd: process.cwd(), env: cliEnv() });
    let stdout = "";
    let stderr = "";
    let decided = false;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /shows this code: ([A-Z]{4}-[A-Z]{4})/.exec(stdout);
      if (match && !decided) {
        decided = true;
        decide(match[1]!).catch(reject);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

describe("svc login / logout (the real CLI against a real server)", () => {
  it("logs in through an approval, stores a private credentials file the config commands use, and logs out", async () => {
    const result = await login((userCode) =>
      approveDeviceCode(app.systemCtx(), { userId: dev.userId, userCode, projectId: acme.projectId, scopes: ["config:read", "limits:read"] }),
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\/cli\/confirm\?code=[A-Z]{4}-[A-Z]{4}/);

    const stat = fs.statSync(credentialsFile());
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(credentialsFile())).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(fs.readFileSync(credentialsFile(), "utf8"));
    expect(stored).toEqual({ url: `${base}/api/v1`, key: expect.stringMatching(/^svc_live_/), key_id: expect.any(String), project_id: acme.projectId });
    const [key] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, stored.key_id));
    expect(key).toMatchObject({
      name: `CLI on ${
        os
          .hostname()
          .replace(/[^A-Za-z0-9._-]/g, "")
          .slice(0, 64) || "unknown host"
      }`,
      scopes: ["config:read", "limits:read"],
    });
    // The display, never the value.
    expect(result.stdout).toContain(key!.display);
    expect(result.stdout).not.toContain(stored.key);

    // No --url, --key or environment: the stored login is used.
    const exported = await cli(["config", "export", "--format", "json"]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ version: 1 });
    // --key wins over the stored key (this one is unknown: 401).
    const flagged = await cli(["config", "export", "--key", `svc_live_${"x".repeat(32)}`]);
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toContain("401");
    // The stored key is never sent to another server.
    const elsewhere = await cli(["config", "export"], { SVC_API_URL: "http://127.0.0.1:9/api/v1" });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain("The stored login is for");

    const out = await cli(["logout"]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("Revoked key");
    expect(fs.existsSync(credentialsFile())).toBe(false);
    const [revoked] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, stored.key_id));
    expect(revoked!.revokedAt).not.toBeNull();

    const again = await cli(["logout"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Not logged in");
  });

  it("exits non-zero with a clear message when the login is denied, storing nothing", async () => {
    const result = await login((userCode) => denyDeviceCode(app.systemCtx(), { userId: dev.userId, userCode }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Login denied");
    expect(fs.existsSync(credentialsFile())).toBe(false);
  });

  it("logout deletes the file even when the server already revoked the key", async () => {
    const key = await app.addKey(acme, ["limits:read"]);
    const [row] = await app.db.select().from(apiKeys).where(eq(apiKeys.projectId, acme.projectId));
    await app.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.keyHash, (await import("@/lib/crypto/secrets")).sha256Hex(key)));
    forgetAuthenticatedKeys();
    fs.mkdirSync(path.dirname(credentialsFile()), { recursive: true, mode: 0o700 });
    fs.writeFileSync(credentialsFile(), JSON.stringify({ url: `${base}/api/v1`, key, key_id: row!.id, project_id: acme.projectId }), { mode: 0o600 });
    const out = await cli(["logout"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("already revoked");
    expect(fs.existsSync(credentialsFile())).toBe(false);
  });
});
