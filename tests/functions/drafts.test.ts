import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";

/** GET / PUT / DELETE /functions/{id}/draft: saved code that runs nowhere until a deploy (issue 32 item 7). */

let app: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app.close());

const V1 = "export default async function () { return { version: 1 }; }\n";
const V2 = "export default async function () { return { version: 2 }; }\n";

async function saveDraft(functionId: string, source: string, key = seeded.key) {
  return app.call("PUT", `/functions/${functionId}/draft`, { key, body: { source } });
}

describe("a function's draft", () => {
  it("is empty until saved: source null, the live source is what an editor opens", async () => {
    const fn = await deployed(app, seeded.key, "draft-empty", V1);
    const res = await app.call("GET", `/functions/${fn.id}/draft`, { key: seeded.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "function_draft", function_id: fn.id, source: null, bytes: null, base_version_id: null, updated_at: null });
  });

  it("saving does not change what runs: the live version, its source and a test run stay version 1", async () => {
    const fn = await deployed(app, seeded.key, "draft-not-live", V1);
    const saved = await saveDraft(fn.id, V2);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ object: "function_draft", function_id: fn.id, source: V2, bytes: V2.length, base_version_id: fn.versionId });
    expect(Date.parse(saved.body.updated_at)).not.toBeNaN();

    const read = await app.call("GET", "/functions/draft-not-live/draft", { key: seeded.key });
    expect(read.body).toEqual(saved.body);
    const live = await app.call("GET", `/functions/${fn.id}`, { key: seeded.key });
    expect(live.body).toMatchObject({ active_version_id: fn.versionId, script_name: "draft-not-live-v1", source: V1 });
    const run = await app.call("POST", `/functions/${fn.id}/test`, { key: seeded.key, body: { text: "hi" } });
    expect(run.body).toMatchObject({ status: "ok", version_id: fn.versionId, result: { version: 1 } });
    const versions = await app.call("GET", `/functions/${fn.id}/versions`, { key: seeded.key });
    expect(versions.body.data).toHaveLength(1);
  });

  it("a second save replaces the first; before any deploy base_version_id is null", async () => {
    const created = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "draft-first", name: "First", trigger_type: "KEYWORD" } });
    await saveDraft(created.body.id, V1);
    const again = await saveDraft(created.body.id, V2);
    expect(again.body).toMatchObject({ source: V2, base_version_id: null });
    const fn = await app.call("GET", `/functions/${created.body.id}`, { key: seeded.key });
    expect(fn.body).toMatchObject({ active_version_id: null, source: null });
  });

  it("a successful deploy of exactly the draft's code removes the draft; other code or a failed deploy keeps it", async () => {
    const fn = await deployed(app, seeded.key, "draft-deploy", V1);
    await saveDraft(fn.id, V2);

    const failed = await app.call("POST", `/functions/${fn.id}/deploy`, { key: seeded.key, body: { source: "export default async function ( {" } });
    expect(failed.body.status).toBe("error");
    expect((await app.call("GET", `/functions/${fn.id}/draft`, { key: seeded.key })).body.source).toBe(V2);

    const other = await app.call("POST", `/functions/${fn.id}/deploy`, { key: seeded.key, body: { source: V1.replace("1", "3") } });
    expect(other.body.status).toBe("ok");
    expect((await app.call("GET", `/functions/${fn.id}/draft`, { key: seeded.key })).body.source).toBe(V2);

    const same = await app.call("POST", `/functions/${fn.id}/deploy`, { key: seeded.key, body: { source: V2 } });
    expect(same.body.status).toBe("ok");
    expect((await app.call("GET", `/functions/${fn.id}/draft`, { key: seeded.key })).body.source).toBeNull();
  });

  it("DELETE discards it, and answers the same when there is none", async () => {
    const fn = await deployed(app, seeded.key, "draft-discard", V1);
    await saveDraft(fn.id, V2);
    const first = await app.call("DELETE", `/functions/${fn.id}/draft`, { key: seeded.key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: "function_draft", function_id: fn.id, source: null });
    const second = await app.call("DELETE", `/functions/${fn.id}/draft`, { key: seeded.key });
    expect(second.body).toEqual(first.body);
    expect((await app.call("GET", `/functions/${fn.id}`, { key: seeded.key })).body.source).toBe(V1);
  });

  it("refuses an empty or oversized draft with 400 invalid_request on source", async () => {
    const fn = await deployed(app, seeded.key, "draft-limits", V1);
    for (const source of ["", "x".repeat(400_001)]) {
      const res = await saveDraft(fn.id, source);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      expect(res.body.issues).toHaveProperty("source");
    }
    expect((await saveDraft(fn.id, "x".repeat(400_000))).status).toBe(200);
  });

  it("goes with its function when the function is deleted", async () => {
    const fn = await deployed(app, seeded.key, "draft-deleted", V1);
    await saveDraft(fn.id, V2);
    expect((await app.call("DELETE", `/functions/${fn.id}`, { key: seeded.key })).status).toBe(200);
    const recreated = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "draft-deleted", name: "Again", trigger_type: "KEYWORD" } });
    expect((await app.call("GET", `/functions/${recreated.body.id}/draft`, { key: seeded.key })).body.source).toBeNull();
  });
});

describe("tenant isolation", () => {
  it("another project's function is a 404 for every draft operation, by id and by slug, and its draft is untouched", async () => {
    const fn = await deployed(app, seeded.key, "draft-private", V1);
    await saveDraft(fn.id, V2);
    const other = await app.addProject(seeded);
    const calls: [string, string, unknown?][] = [
      ["GET", `/functions/${fn.id}/draft`],
      ["GET", "/functions/draft-private/draft"],
      ["PUT", `/functions/${fn.id}/draft`, { source: "stolen" }],
      ["PUT", "/functions/draft-private/draft", { source: "stolen" }],
      ["DELETE", `/functions/${fn.id}/draft`],
      ["DELETE", "/functions/draft-private/draft"],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.call(method, path, { key: other.key, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    expect((await app.call("GET", `/functions/${fn.id}/draft`, { key: seeded.key })).body.source).toBe(V2);

    // The same slug in the other project has a draft of its own.
    const mine = await deployed(app, other.key, "draft-private", V1);
    expect((await app.call("GET", `/functions/${mine.id}/draft`, { key: other.key })).body.source).toBeNull();
  });
});

describe("scopes", () => {
  it("reading a draft needs functions:read; saving and discarding need functions:write", async () => {
    const fn = await deployed(app, seeded.key, "draft-scoped", V1);
    await saveDraft(fn.id, V2);
    const reader = await app.addKey(seeded, ["functions:read"]);
    expect((await app.call("GET", `/functions/${fn.id}/draft`, { key: reader })).body.source).toBe(V2);
    for (const [method, body] of [
      ["PUT", { source: V1 }],
      ["DELETE", undefined],
    ] as const) {
      const res = await app.call(method, `/functions/${fn.id}/draft`, { key: reader, ...(body ? { body } : {}) });
      expect(res.status, method).toBe(403);
      expect(res.body.required_scope).toBe("functions:write");
    }
    const invoker = await app.addKey(seeded, ["functions:invoke"]);
    const read = await app.call("GET", `/functions/${fn.id}/draft`, { key: invoker });
    expect(read.status).toBe(403);
    expect(read.body.required_scope).toBe("functions:read");
    const writer = await app.addKey(seeded, ["functions:write"]);
    expect((await saveDraft(fn.id, V1, writer)).status).toBe(200);
  });
});
