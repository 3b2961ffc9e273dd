import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "@/lib/api/router";
import { openDatabase } from "@/lib/ports/db/open";
import { LocalObjectStorage } from "@/lib/ports/storage";
import { buildRuntime, type Runtime } from "@/lib/server/runtime";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";

/**
 * What a run reads (lib/domain/functions/run.ts loadRunnable) follows every change at once, whichever
 * process made it: the web process that deploys is not the worker that runs an automation's step.
 * Changes go through the test app's runtime; runs through a second runtime with its own database
 * connections when the tests run on Postgres (on PGlite, one process by construction, the same one).
 * Each process keeps the code of the versions it ran and its unsealed secrets: these tests fail if
 * either is served after the function moved on (a deploy, a rollback, a secret put or deleted, a
 * PATCH, a delete and a new function under the same slug).
 */
let app: TestApp;
let seeded: Seeded;
let other: Runtime | null = null;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  if (app.databaseUrl) {
    const database = await openDatabase({ databaseUrl: app.databaseUrl, migrate: false, max: 2 });
    other = await buildRuntime(database, { clock: app.clock, redisUrl: null, storage: new LocalObjectStorage(os.tmpdir()) });
  }
});
afterAll(async () => {
  await other?.close();
  await app.close();
});

/** A call through the other runtime (the app's own on PGlite). */
async function elsewhere(method: string, path: string, body?: unknown) {
  if (!other) return app.call(method, path, { key: seeded.key, ...(body === undefined ? {} : { body }) });
  const headers = new Headers({ authorization: `Bearer ${seeded.key}` });
  if (body !== undefined) headers.set("content-type", "application/json");
  const request = new Request(`http://svc.test/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await dispatch(request, path, other);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const invokeElsewhere = (idOrSlug: string, args: Record<string, unknown> = {}) => elsewhere("POST", `/functions/${idOrSlug}/invoke`, { arguments: args });
const here = (method: string, path: string, body?: unknown) => app.call(method, path, { key: seeded.key, ...(body === undefined ? {} : { body }) });

describe("a run after a change made in another process", () => {
  it("runs the version a deploy or a rollback made active", async () => {
    const fn = await deployed(app, seeded.key, "fresh-deploy", "export default async () => 'v1';");
    expect((await invokeElsewhere(fn.id)).body).toMatchObject({ status: "ok", result: "v1", version_id: fn.versionId });

    const v2 = await here("POST", `/functions/${fn.id}/deploy`, { source: "export default async () => 'v2';" });
    expect(v2.body.status).toBe("ok");
    expect((await invokeElsewhere(fn.id)).body).toMatchObject({ result: "v2", version_id: v2.body.version_id });
    expect((await invokeElsewhere("fresh-deploy")).body).toMatchObject({ result: "v2" });

    const back = await here("POST", `/functions/${fn.id}/rollback`, { version_id: fn.versionId });
    expect(back.status).toBe(200);
    expect((await invokeElsewhere(fn.id)).body).toMatchObject({ result: "v1", version_id: fn.versionId });
  });

  it("sees each secret as it was last put, and not once deleted", async () => {
    const fn = await deployed(app, seeded.key, "fresh-secret", "export default async () => env.TOKEN ?? 'none';");
    expect((await invokeElsewhere(fn.id)).body.result).toBe("none");
    expect((await here("PUT", `/functions/${fn.id}/secrets`, { TOKEN: "first" })).status).toBe(200);
    expect((await invokeElsewhere(fn.id)).body.result).toBe("first");
    expect((await here("PUT", `/functions/${fn.id}/secrets`, { TOKEN: "second" })).status).toBe(200);
    expect((await invokeElsewhere(fn.id)).body.result).toBe("second");
    expect((await here("PUT", `/functions/${fn.id}/secrets`, { TOKEN: null })).status).toBe(200);
    expect((await invokeElsewhere(fn.id)).body.result).toBe("none");
  });

  it("refuses to run a function set inactive, runs it again once active, and checks the input schema it has now", async () => {
    const fn = await deployed(app, seeded.key, "fresh-active", "export default async (event) => event.arguments;");
    expect((await invokeElsewhere(fn.id, { a: 1 })).body).toMatchObject({ status: "ok", result: { a: 1 } });
    expect((await here("PATCH", `/functions/${fn.id}`, { is_active: false })).status).toBe(200);
    const inactive = await invokeElsewhere(fn.id, { a: 1 });
    expect(inactive.status).toBe(422);
    expect(inactive.body.error).toBe("function_inactive");
    expect((await here("PATCH", `/functions/${fn.id}`, { is_active: true, input_schema: { type: "object", required: ["b"] } })).status).toBe(200);
    expect((await invokeElsewhere(fn.id, { a: 1 })).status).toBe(400);
    expect((await invokeElsewhere(fn.id, { b: 2 })).body).toMatchObject({ status: "ok", result: { b: 2 } });
  });

  it("answers 404 once the function is deleted, and runs the new function that takes its slug", async () => {
    const old = await deployed(app, seeded.key, "fresh-slug", "export default async () => 'old';");
    expect((await invokeElsewhere("fresh-slug")).body.result).toBe("old");
    expect((await here("DELETE", `/functions/${old.id}`)).status).toBe(200);
    expect((await invokeElsewhere(old.id)).status).toBe(404);
    expect((await invokeElsewhere("fresh-slug")).status).toBe(404);
    const next = await deployed(app, seeded.key, "fresh-slug", "export default async () => 'new';");
    expect((await invokeElsewhere("fresh-slug")).body).toMatchObject({ function_id: next.id, result: "new" });
  });
});
