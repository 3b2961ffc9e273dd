import { handleCli } from "@/lib/cli-api/routes";
import { peerHeaderName } from "@/lib/server/peer-address";
import type { CallResult, TestApp } from "../support/app";

/**
 * A client address no other call (in this run or an earlier one) has used, so the per-address creation
 * limit only bites where a test wants it. On Redis the limit's window (10 minutes) outlives a test run,
 * and two runs of the suite share the server: fixed addresses would carry counts from one to the next.
 */
export function freshIp(): string {
  const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${hex()}:${hex()}:${hex()}:${hex()}::1`;
}

/** One /api/cli request through the real handler; `ip` is its socket's address, as our servers stamp it (lib/server/peer-address.ts). */
export async function cliApi(app: TestApp, method: string, path: string, options: { body?: unknown; key?: string; ip?: string } = {}): Promise<CallResult> {
  const headers = new Headers();
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  if (options.ip) headers.set(peerHeaderName(), options.ip);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set("content-type", "application/json");
  }
  const response = await handleCli(new Request(`http://svc.test/api/cli${path}`, { method, headers, body }), path, app.runtime);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** Starts a login from a fresh address; the answer's body. */
export async function startLogin(app: TestApp, host = "laptop.local") {
  const started = await cliApi(app, "POST", "/device-codes", { body: { client_host: host }, ip: freshIp() });
  if (started.status !== 200) throw new Error(`start failed: ${JSON.stringify(started.body)}`);
  return started.body as { device_code: string; user_code: string; verification_url: string; expires_in: number; interval: number };
}

/** A poll after the interval has passed on the app's clock. */
export async function poll(app: TestApp, deviceCode: string): Promise<CallResult> {
  app.clock.advance(2_000);
  return cliApi(app, "POST", "/device-codes/token", { body: { device_code: deviceCode } });
}
