import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";

let app: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app.close());

const ECHO = "export default async function (event, ctx) { return { event, ctx_id: ctx.function_id }; }";

describe("POST /functions", () => {
  it("creates a function with no code yet", async () => {
    const res = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "greet", name: "Greeter", trigger_type: "WELCOME" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: "hosted_function",
      slug: "greet",
      name: "Greeter",
      trigger_type: "WELCOME",
      script_name: "greet-v0",
      runtime: "PLAIN",
      active_version_id: null,
      expose_as_mcp_tool: false,
      input_schema: null,
      is_active: true,
      last_deployed_at: null,
    });
    expect(res.body.id).toMatch(/^fn_/);
    expect(res.body).not.toHaveProperty("source");
  });

  it("refuses a slug already used in the project with 409 function_conflict", async () => {
    await app.call("POST", "/functions", { key: seeded.key, body: { slug: "twice", name: "One", trigger_type: "KEYWORD" } });
    const again = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "twice", name: "Two", trigger_type: "KEYWORD" } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "function_conflict", issues: { slug: ["Already used in this project."] } });
  });

  it("validates slug, name and trigger_type", async () => {
    const cases = [
      { slug: "Upper", name: "x", trigger_type: "KEYWORD" },
      { slug: "1digit", name: "x", trigger_type: "KEYWORD" },
      { slug: "a".repeat(65), name: "x", trigger_type: "KEYWORD" },
      { slug: "ok", name: "", trigger_type: "KEYWORD" },
      { slug: "ok", name: "n".repeat(121), trigger_type: "KEYWORD" },
      { slug: "ok", name: "x", trigger_type: "SOMETIMES" },
    ];
    for (const body of cases) {
      const res = await app.call("POST", "/functions", { key: seeded.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("invalid_request");
    }
  });
});

describe("GET /functions and GET /functions/{id}", () => {
  it("addresses a function by id or slug; only the single GET carries source", async () => {
    const fn = await deployed(app, seeded.key, "echo-read", ECHO);
    const byId = await app.call("GET", `/functions/${fn.id}`, { key: seeded.key });
    const bySlug = await app.call("GET", "/functions/echo-read", { key: seeded.key });
    expect(byId.status).toBe(200);
    expect(byId.body.source).toBe(ECHO);
    expect(bySlug.body).toEqual(byId.body);
    const list = await app.call("GET", "/functions?limit=100", { key: seeded.key });
    const item = (list.body.data as { id: string }[]).find((f) => f.id === fn.id);
    expect(item).toBeDefined();
    expect(item).not.toHaveProperty("source");
  });

  it("filters the list by trigger_type and is_active", async () => {
    const { body } = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "any-off", name: "Off", trigger_type: "ANY_MESSAGE" } });
    await app.call("PATCH", `/functions/${body.id}`, { key: seeded.key, body: { is_active: false } });
    const any = await app.call("GET", "/functions?trigger_type=ANY_MESSAGE&is_active=false", { key: seeded.key });
    expect((any.body.data as { id: string }[]).map((f) => f.id)).toEqual([body.id]);
  });
});

describe("PATCH /functions/{id}", () => {
  it("updates name, is_active, expose_as_mcp_tool and input_schema; null clears the schema", async () => {
    const { body: fn } = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "settings", name: "S", trigger_type: "KEYWORD" } });
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const patched = await app.call("PATCH", "/functions/settings", {
      key: seeded.key,
      body: { name: "Weather", is_active: false, expose_as_mcp_tool: true, input_schema: schema },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: fn.id, name: "Weather", is_active: false, expose_as_mcp_tool: true, input_schema: schema });
    const cleared = await app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { input_schema: null } });
    expect(cleared.body.input_schema).toBeNull();
  });

  it("refuses an input_schema that is not a JSON Schema of an object", async () => {
    const { body: fn } = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "bad-schema", name: "S", trigger_type: "KEYWORD" } });
    const invalid = await app.call("PATCH", `/functions/${fn.id}`, {
      key: seeded.key,
      body: { input_schema: { type: "object", properties: { a: { type: 12 } } } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues).toHaveProperty("input_schema");
    const notObject = await app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { input_schema: { type: "string" } } });
    expect(notObject.status).toBe(400);
    const unknownKey = await app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { source: "x" } });
    expect(unknownKey.status).toBe(400);
  });
});

describe("DELETE /functions/{id}", () => {
  it("deletes the function and everything it owns", async () => {
    const fn = await deployed(app, seeded.key, "doomed", ECHO);
    await app.call("PUT", `/functions/${fn.id}/secrets`, { key: seeded.key, body: { TOKEN: "x" } });
    await app.call("POST", `/functions/${fn.id}/test`, { key: seeded.key, body: { text: "hi" } });
    const deleted = await app.call("DELETE", `/functions/${fn.id}`, { key: seeded.key });
    expect(deleted.body).toEqual({ object: "hosted_function", id: fn.id, deleted: true });
    expect((await app.call("GET", `/functions/${fn.id}`, { key: seeded.key })).status).toBe(404);
    expect((await app.call("GET", `/functions/${fn.id}/invocations`, { key: seeded.key })).status).toBe(404);
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another project's function on every operation, by id and by slug", async () => {
    const fn = await deployed(app, seeded.key, "private-fn", ECHO);
    const other = await app.addProject(seeded);
    const paths: [string, string, unknown?][] = [
      ["GET", `/functions/${fn.id}`],
      ["GET", "/functions/private-fn"],
      ["PATCH", `/functions/${fn.id}`, { name: "stolen" }],
      ["DELETE", `/functions/${fn.id}`],
      ["POST", `/functions/${fn.id}/deploy`, { source: ECHO }],
      ["POST", `/functions/${fn.id}/test`, { text: "x" }],
      ["POST", `/functions/${fn.id}/invoke`, { arguments: {} }],
      ["GET", `/functions/${fn.id}/invocations`],
      ["GET", `/functions/${fn.id}/versions`],
      ["POST", `/functions/${fn.id}/rollback`, { version_id: fn.versionId }],
      ["GET", `/functions/${fn.id}/secrets`],
      ["PUT", `/functions/${fn.id}/secrets`, { A: "b" }],
    ];
    for (const [method, path, body] of paths) {
      const res = await app.call(method, path, { key: other.key, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    const list = await app.call("GET", "/functions", { key: other.key });
    expect(list.body.data).toEqual([]);
    // The same slug is free in the other project.
    const same = await app.call("POST", "/functions", { key: other.key, body: { slug: "private-fn", name: "Mine", trigger_type: "KEYWORD" } });
    expect(same.status).toBe(200);
  });
});

describe("scopes", () => {
  it("reading needs functions:read, deploying functions:write, running functions:invoke", async () => {
    const fn = await deployed(app, seeded.key, "scoped", ECHO);
    const reader = await app.addKey(seeded, ["functions:read"]);
    expect((await app.call("GET", `/functions/${fn.id}`, { key: reader })).status).toBe(200);
    const deploy = await app.call("POST", `/functions/${fn.id}/deploy`, { key: reader, body: { source: ECHO } });
    expect(deploy.status).toBe(403);
    expect(deploy.body.required_scope).toBe("functions:write");
    const invoke = await app.call("POST", `/functions/${fn.id}/invoke`, { key: reader, body: {} });
    expect(invoke.body.required_scope).toBe("functions:invoke");
    const invoker = await app.addKey(seeded, ["functions:invoke"]);
    expect((await app.call("POST", `/functions/${fn.id}/invoke`, { key: invoker, body: {} })).status).toBe(200);
  });
});
