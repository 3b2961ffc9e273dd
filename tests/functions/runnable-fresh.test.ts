import os from "node:os";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostedFunctions, projects } from "@/lib/db/schema";
import { dispatch } from "@/lib/api/router";
import { openDatabase } from "@/lib/ports/db/open";
import { LocalObjectStorage } from "@/lib/ports/storage";
import { buildRuntime, type Runtime } from "@/lib/server/runtime";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * What a run reads (lib/domain/functions/run.ts loadRunnable) follows every change at once, whichever
 * process made it: the web process that deploys is not the worker that runs an automation's step.
 * Changes go through the test app's runtime; runs through a second runtime with its own database
 * connections when the tests run on Postgres (on PGlite, one process by construction, the same one).
 * Each process keeps the code of the versions it ran, its unsealed secrets, and what it loaded to run
 * a function under the project's functions revision (lib/domain/functions/runnable-cache.ts): these
 * tests fail if any of it is served after the function moved on (a deploy, a rollback, a secret put or
 * deleted, a PATCH, a delete and a new function under the same slug), if a change does not move the
 * revision in its own transaction, or if one project's entry answers for another's.
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
async function elsewhere(method: string, path: string, body?: unknown, key = seeded.key) {
  if (!other) return app.call(method, path, { key, ...(body === undefined ? {} : { body }) });
  const headers = new Headers({ authorization: `Bearer ${key}` });
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

async function revisionOf(projectId: string): Promise<number> {
  const [row] = await app.db.select({ revision: projects.functionsRevision }).from(projects).where(eq(projects.id, projectId));
  return row!.revision;
}

describe("the project's functions revision", () => {
  it("moves with every change to a function, in that change's transaction, and not when the change is refused", async () => {
    const project = seeded.projectId;
    const changes: [string, () => Promise<{ status: number }>][] = [];
    let id = "";
    changes.push([
      "create",
      async () => {
        const created = await here("POST", "/functions", { slug: "revision-moves", name: "Revision", trigger_type: "KEYWORD" });
        id = created.body.id;
        return created;
      },
    ]);
    changes.push(["deploy", () => here("POST", `/functions/${id}/deploy`, { source: "export default async () => 1;" })]);
    let first = "";
    changes.push([
      "deploy again",
      async () => {
        first = (await here("GET", `/functions/${id}/versions`)).body.data[0].id;
        return here("POST", `/functions/${id}/deploy`, { source: "export default async () => 2;" });
      },
    ]);
    changes.push(["rollback", () => here("POST", `/functions/${id}/rollback`, { version_id: first })]);
    changes.push(["secret put", () => here("PUT", `/functions/${id}/secrets`, { TOKEN: "x" })]);
    changes.push(["secret deleted", () => here("PUT", `/functions/${id}/secrets`, { TOKEN: null })]);
    changes.push(["deactivate", () => here("PATCH", `/functions/${id}`, { is_active: false })]);
    changes.push(["activate", () => here("PATCH", `/functions/${id}`, { is_active: true })]);
    changes.push(["delete", () => here("DELETE", `/functions/${id}`)]);
    for (const [what, change] of changes) {
      const before = await revisionOf(project);
      const answer = await change();
      expect(answer.status, what).toBe(200);
      expect(await revisionOf(project), what).toBe(before + 1);
    }

    const kept = await deployed(app, seeded.key, "revision-refused", "export default async () => 1;");
    const before = await revisionOf(project);
    // 51 secrets: refused inside the transaction, after the writes; the revision rolls back with them.
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`S${i}`, "v"]));
    expect((await here("PUT", `/functions/${kept.id}/secrets`, tooMany)).status).toBe(400);
    const failedDeploy = await here("POST", `/functions/${kept.id}/deploy`, { source: "export default async () => { syntax error" });
    expect(failedDeploy.body.status).toBe("error");
    expect(await revisionOf(project)).toBe(before);
  });

  it("is what a process reuses its loaded function under: a write that does not move it is not seen until something does", async () => {
    const fn = await deployed(app, seeded.key, "revision-reuse", "export default async () => 'ran';");
    expect((await invokeElsewhere(fn.id)).body.result).toBe("ran");
    // Behind the verbs' back (no revision): the process that ran it goes on with what it loaded.
    await app.db.update(hostedFunctions).set({ isActive: false }).where(eq(hostedFunctions.id, fn.id));
    expect((await invokeElsewhere(fn.id)).body.result).toBe("ran");
    // Any change through a verb moves the revision: the next request loads again and sees the row as it is.
    expect((await here("PATCH", `/functions/${fn.id}`, { name: "Renamed" })).status).toBe(200);
    const inactive = await invokeElsewhere(fn.id);
    expect(inactive.status).toBe(422);
    expect(inactive.body.error).toBe("function_inactive");
  });

  it("never lets one project's loaded function answer for another project's at the same revision", async () => {
    const second = await app.addProject(seeded, "Second");
    const mine = await deployed(app, seeded.key, "same-slug", "export default async () => 'first project';");
    const theirs = await deployed(app, second.key, "same-slug", "export default async () => 'second project';");
    // Force equal revisions, so only the project in the key tells the two entries apart.
    await app.db.update(projects).set({ functionsRevision: 7 }).where(eq(projects.id, seeded.projectId));
    forgetAuthenticatedKeys();
    await app.db.update(projects).set({ functionsRevision: 7 }).where(eq(projects.id, second.projectId));
    forgetAuthenticatedKeys();
    for (let round = 0; round < 2; round++) {
      expect((await invokeElsewhere("same-slug")).body).toMatchObject({ function_id: mine.id, result: "first project" });
      expect((await elsewhere("POST", "/functions/same-slug/invoke", { arguments: {} }, second.key)).body).toMatchObject({
        function_id: theirs.id,
        result: "second project",
      });
    }
  });
});
