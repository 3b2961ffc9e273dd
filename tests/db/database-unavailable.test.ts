import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "@/lib/api/router";
import { receiveDelivery } from "@/lib/api/provider-webhook";
import { openDatabase } from "@/lib/ports/db/open";
import type { DatabaseHandle } from "@/lib/ports/db/types";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * A database that cannot be reached gives a clear 503 with Retry-After (API) and a 5xx the provider
 * retries (ingest), never a 500 or an empty body. Port 1 on loopback refuses every connection.
 */
let app: TestApp;
let acme: Seeded;
let dead: DatabaseHandle;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  dead = await openDatabase({ databaseUrl: "postgres://postgres@127.0.0.1:1/unreachable", migrate: false, max: 1 });
});
afterAll(async () => {
  await dead?.close().catch(() => {});
  await app?.close();
});

describe("the database is unreachable", () => {
  it("an API request answers 503 database_unavailable with Retry-After", async () => {
    const request = new Request("http://svc.test/api/v1/conversations", { headers: { authorization: `Bearer ${acme.key}` } });
    const res = await dispatch(request, "/conversations", { ...app.runtime, database: dead });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("svc-version")).toBeTruthy();
    expect(await res.json()).toMatchObject({ error: "database_unavailable", retryable: true, retry_after: 1, request_id: expect.stringMatching(/^req_/) });
  });

  it("a write answers the same 503, and its Idempotency-Key is free for the retry", async () => {
    const body = JSON.stringify({ name: "Renamed" });
    const request = new Request(`http://svc.test/api/v1/projects/${acme.projectId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${acme.key}`, "content-type": "application/json", "idempotency-key": "outage-1" },
      body,
    });
    const res = await dispatch(request, `/projects/${acme.projectId}`, { ...app.runtime, database: dead });
    expect(res.status).toBe(503);
    const retry = await app.call("PATCH", `/projects/${acme.projectId}`, {
      key: acme.key,
      body: { name: "Renamed" },
      headers: { "idempotency-key": "outage-1" },
    });
    expect(retry.status).toBe(200);
    expect(retry.body.name).toBe("Renamed");
  });

  it("a signed provider delivery answers 503 JSON (the provider delivers it again), not an empty 500", async () => {
    const raw = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
    const request = new Request("http://svc.test/api/providers/platform-a/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(simulatorAppSecret("PLATFORM_A"), raw) },
      body: raw,
    });
    const res = await receiveDelivery("PLATFORM_A", request, { ...app.runtime, database: dead });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({ error: "database_unavailable" });
  });
});
