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

async function create(slug: string) {
  const res = await app.call("POST", "/functions", { key: seeded.key, body: { slug, name: slug, trigger_type: "KEYWORD" } });
  return res.body.id as string;
}

async function deploy(id: string, source: string) {
  const res = await app.call("POST", `/functions/${id}/deploy`, { key: seeded.key, body: { source } });
  expect(res.status).toBe(200);
  return res.body;
}

async function invoke(id: string, args: Record<string, unknown> = {}) {
  const res = await app.call("POST", `/functions/${id}/invoke`, { key: seeded.key, body: { arguments: args } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("POST /functions/{id}/deploy", () => {
  it("makes version 1 live: runtime, script_name, bytes (UTF-8) and the source on GET", async () => {
    const id = await create("first");
    const source = "// héllo\nexport default async function () { return 'v1'; }\n";
    const body = await deploy(id, source);
    expect(body).toMatchObject({
      object: "function_deploy",
      function_id: id,
      status: "ok",
      runtime: "PLAIN",
      diagnostics: [],
      bytes: Buffer.byteLength(source),
    });
    expect(body.bytes).toBe(source.length + 1);
    expect(body.version_id).toMatch(/^ver_/);
    const fn = await app.call("GET", `/functions/${id}`, { key: seeded.key });
    expect(fn.body).toMatchObject({ active_version_id: body.version_id, script_name: "first-v1", runtime: "PLAIN", source });
    expect(fn.body.last_deployed_at).not.toBeNull();
    expect((await invoke(id)).result).toBe("v1");
  });

  it("accepts TypeScript and runs it with the types stripped", async () => {
    const id = await create("typed");
    const source = [
      "interface Args { a: number; b: number }",
      "export async function handler(event: { arguments: Args }): Promise<number> {",
      "  const { a, b } = event.arguments as Args;",
      "  return a + b;",
      "}",
    ].join("\n");
    expect((await deploy(id, source)).status).toBe("ok");
    expect((await invoke(id, { a: 2, b: 3 })).result).toBe(5);
  });

  it("detects the WFP runtime and answers with the Response's JSON body", async () => {
    const id = await create("workers");
    const source = `export default {
      async fetch(request: Request, env: Record<string, string>) {
        const event = await request.json();
        return Response.json({ method: request.method, type: event.type, n: event.arguments.n * 2 });
      },
    };`;
    const body = await deploy(id, source);
    expect(body.runtime).toBe("WFP");
    expect((await invoke(id, { n: 21 })).result).toEqual({ method: "POST", type: "invoke", n: 42 });
  });

  it("answers a syntax error with line:column diagnostics, and the previous version stays live", async () => {
    const id = await create("keep-live");
    const good = await deploy(id, "export default async () => 'good';");
    const bad = await deploy(id, "export default async function () {\n  return 'x' +;\n}\n");
    expect(bad).toMatchObject({ status: "error", version_id: null, runtime: null });
    expect(bad.diagnostics).toHaveLength(1);
    expect(bad.diagnostics[0]).toMatch(/^2:\d+ /);
    const fn = await app.call("GET", `/functions/${id}`, { key: seeded.key });
    expect(fn.body).toMatchObject({ active_version_id: good.version_id, script_name: "keep-live-v1", source: "export default async () => 'good';" });
    expect((await invoke(id)).result).toBe("good");
    const versions = await app.call("GET", `/functions/${id}/versions`, { key: seeded.key });
    expect(versions.body.data).toHaveLength(1);
  });

  it("refuses imports, at the import", async () => {
    const id = await create("importer");
    const body = await deploy(id, "const x = 1;\nimport fs from 'node:fs';\nexport default () => fs;\n");
    expect(body.status).toBe("error");
    expect(body.diagnostics[0]).toMatch(/^2:\d+ 'node:fs' cannot be imported/);
  });

  it("refuses a literal require() or import() of a module at deploy", async () => {
    const id = await create("requirer");
    const required = await deploy(id, "export default async () => require('fs').readFileSync('/etc/passwd');\n");
    expect(required.status).toBe("error");
    expect(required.diagnostics[0]).toMatch(/^1:\d+ 'fs' cannot be imported/);
    const imported = await deploy(id, "export default async () => (await import('fs')).default;\n");
    expect(imported.diagnostics[0]).toMatch(/^1:\d+ 'fs' cannot be imported/);
  });

  it("refuses a module without a handler, naming the accepted shapes", async () => {
    const id = await create("shapeless");
    const body = await deploy(id, "export const answer = 42;\n");
    expect(body.status).toBe("error");
    expect(body.diagnostics.join("\n")).toMatch(/export default/);
  });

  it("reports a top-level throw at its line in the TypeScript source as written", async () => {
    const id = await create("throws-top");
    const source = [
      "type Config = { url: string };",
      "const config: Config = { url: 'x' };",
      "",
      "throw new Error('boom at load');",
      "export default async () => config;",
    ].join("\n");
    const body = await deploy(id, source);
    expect(body.status).toBe("error");
    expect(body.diagnostics[0]).toMatch(/^4:\d+ .*boom at load/);
  });

  it("stops a top level that never finishes under the CPU limit", async () => {
    const id = await create("spins-top");
    const body = await deploy(id, "while (true) {}\nexport default () => 1;\n");
    expect(body.status).toBe("error");
    expect(body.diagnostics.join("\n")).toContain("cpu_limit_exceeded");
  });

  it("refuses source over 400,000 characters with 400", async () => {
    const id = await create("huge");
    const res = await app.call("POST", `/functions/${id}/deploy`, { key: seeded.key, body: { source: `// ${"x".repeat(400_000)}` } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toHaveProperty("source");
  });
});

describe("versions and rollback", () => {
  it("lists versions newest first and rolls back to an earlier one", async () => {
    const id = await create("rolling");
    const v1 = await deploy(id, "export default () => 1;");
    const v2 = await deploy(id, "export default () => 2;");
    const list = await app.call("GET", `/functions/${id}/versions?include=source`, { key: seeded.key });
    expect(list.body.data.map((v: { id: string }) => v.id)).toEqual([v2.version_id, v1.version_id]);
    expect(list.body.data[0]).toMatchObject({
      object: "function_version",
      number: 2,
      script_name: "rolling-v2",
      is_active: true,
      source: "export default () => 2;",
    });
    expect(list.body.data[1]).toMatchObject({ number: 1, is_active: false });
    expect((await invoke(id)).result).toBe(2);

    const rolled = await app.call("POST", `/functions/${id}/rollback`, { key: seeded.key, body: { version_id: v1.version_id } });
    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({ active_version_id: v1.version_id, script_name: "rolling-v1", source: "export default () => 1;" });
    const run = await invoke(id);
    expect(run).toMatchObject({ result: 1, version_id: v1.version_id });
  });

  it("refuses another function's version with 404", async () => {
    const a = await deployed(app, seeded.key, "roll-a", "export default () => 'a';");
    const b = await deployed(app, seeded.key, "roll-b", "export default () => 'b';");
    const res = await app.call("POST", `/functions/${a.id}/rollback`, { key: seeded.key, body: { version_id: b.versionId } });
    expect(res.status).toBe(404);
  });
});
