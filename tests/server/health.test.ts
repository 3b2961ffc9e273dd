import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import type { Runtime } from "@/lib/server/runtime";
import { setDraining } from "@/lib/server/shutdown-state";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startTestServer, type TestServer } from "../support/http-server";

/**
 * GET /healthz and GET /readyz over a real HTTP server (README "Health and metrics"): no key, no
 * Svc-Version, not counted against the calling key's limits, and readiness 503 when the database is
 * unreachable, its migrations are not applied, or the process is draining.
 */
let app: TestApp;
let server: TestServer;
let seeded: Seeded;
const extra: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  server = await startTestServer(() => app.runtime);
});

afterEach(async () => {
  setDraining(false);
  for (const item of extra.splice(0)) await item.close();
});

afterAll(async () => {
  await server.close();
  await app.close();
});

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** A server whose runtime is this file's, but whose readiness probes `database` instead. */
async function serverProbing(database: DatabaseHandle["db"]): Promise<string> {
  const runtime: Runtime = { ...app.runtime, readiness: { db: database, pingRedis: null } };
  const other = await startTestServer(() => runtime);
  extra.push(other);
  return other.url;
}

describe("GET /healthz", () => {
  it("answers 200 without a key, and without the API's version header", async () => {
    const answer = await get(server.url, "/healthz");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: "ok" });
    expect(answer.headers.get("svc-version")).toBeNull();
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /readyz", () => {
  it("answers 200 when the database answers and this build's migrations are applied (Redis not configured)", async () => {
    const answer = await get(server.url, "/readyz");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: "ready",
      checks: { process: "ok", database: "ok", migrations: "ok", redis: app.runtime.readiness.pingRedis ? "ok" : "not_configured" },
    });
  });

  it("is not counted against the calling key's rate limit", async () => {
    const auth = { authorization: `Bearer ${seeded.key}` };
    const before = await get(server.url, "/api/v1/identity", auth);
    for (let i = 0; i < 5; i++) {
      expect((await get(server.url, "/readyz", auth)).status).toBe(200);
      expect((await get(server.url, "/healthz", auth)).status).toBe(200);
    }
    const after = await get(server.url, "/api/v1/identity", auth);
    // Only the second /identity call itself was counted.
    expect(Number(before.headers.get("ratelimit-remaining")) - Number(after.headers.get("ratelimit-remaining"))).toBe(1);
  });

  it("answers 503 database unreachable when Postgres does not answer", async () => {
    // A real driver and pool against a port nobody listens on: every query fails to connect.
    const dead = await openDatabase({ databaseUrl: "postgres://svc:svc@127.0.0.1:9/svc", migrate: false, max: 1 });
    extra.push({ close: () => dead.close() });
    const answer = await get(await serverProbing(dead.db), "/readyz");
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: "not_ready", checks: { process: "ok", database: "unreachable", migrations: "pending", redis: "not_configured" } });
  });

  it("answers 503 migrations pending on a database that has none applied", async () => {
    const empty = await openDatabase({ dataDir: "memory://", migrate: false });
    extra.push(empty);
    const answer = await get(await serverProbing(empty.db), "/readyz");
    expect(answer.status).toBe(503);
    expect(answer.body.checks).toMatchObject({ database: "ok", migrations: "pending" });
  });

  it("answers 503 draining once the process got SIGTERM, while liveness stays 200", async () => {
    setDraining(true);
    const ready = await get(server.url, "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: "not_ready", checks: { process: "draining", database: "ok" } });
    expect((await get(server.url, "/healthz")).status).toBe(200);
  });
});
