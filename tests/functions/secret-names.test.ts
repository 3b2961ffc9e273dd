import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";

/**
 * Secret names named like Object.prototype members: JSON.parse makes `__proto__` an own key, but a
 * record schema drops it without a word, so the request wrapper refuses it before any schema
 * (lib/api/request-input.ts). Nothing is written by a refused request.
 */

let app: TestApp;
let seeded: Seeded;
let functionId: string;
beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  functionId = (await deployed(app, seeded.key, "with-secrets", "export default async () => Object.keys(env).sort();")).id;
});
afterAll(async () => {
  await app.close();
});

async function putRaw(rawBody: string) {
  return app.call("PUT", `/functions/${functionId}/secrets`, { key: seeded.key, rawBody, headers: { "content-type": "application/json" } });
}

describe("PUT /functions/{id}/secrets with names outside the pattern", () => {
  for (const name of ["__proto__", "constructor", "toString"]) {
    it(`"${name}" answers 400 naming it, and stores nothing`, async () => {
      const res = await putRaw(`{"${name}": "x", "GOOD_NAME": "kept?"}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      expect(Object.keys(res.body.issues)).toEqual([name]);
      const list = await app.call("GET", `/functions/${functionId}/secrets`, { key: seeded.key });
      expect(list.body.data).toEqual([]);
    });
  }

  it("a name in the pattern is still stored", async () => {
    const res = await putRaw('{"API_TOKEN": "t0k"}');
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { name: string }) => s.name)).toEqual(["API_TOKEN"]);
    await putRaw('{"API_TOKEN": null}');
  });
});

describe("__proto__ elsewhere in a body", () => {
  it("in a function's invoke arguments is refused too, rather than silently dropped", async () => {
    const res = await app.call("POST", `/functions/${functionId}/invoke`, {
      key: seeded.key,
      rawBody: '{"arguments": {"__proto__": {"admin": true}, "city": "Porto"}}',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.issues)).toEqual(["arguments.__proto__"]);
  });
});
