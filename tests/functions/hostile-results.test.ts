import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";

/**
 * What a function returns or logs is stored whatever it is (docs/api-decisions.md "Hosted functions"):
 * lone surrogates become U+FFFD, NUL becomes U+2400 (␀), and what still cannot be stored ends the run
 * `invalid_result`. Every run answers 200 and is in the invocation log. Real sandbox, real database.
 */

let app: TestApp;
let seeded: Seeded;
beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(async () => {
  await app.close();
});

async function invokeOnce(slug: string, source: string) {
  const fn = await deployed(app, seeded.key, slug, source);
  const res = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const log = await app.call("GET", `/functions/${fn.id}/invocations`, { key: seeded.key });
  expect(log.status).toBe(200);
  expect(log.body.data).toHaveLength(1);
  const [row] = log.body.data;
  expect(row).toMatchObject({ id: res.body.invocation_id, status: res.body.status, error: res.body.error });
  return { answer: res.body, row };
}

const noSql = (text: unknown) => expect(String(text)).not.toMatch(/insert into|select |params:|Failed query/i);

describe("results Postgres could not store before", () => {
  it("a string with a lone surrogate is stored with U+FFFD, the same rule as inbound messages", async () => {
    const { answer, row } = await invokeOnce("lone-surrogate", 'export default async () => "a\\ud800b" + "\\udc00";');
    expect(answer).toMatchObject({ status: "ok", error: null, result: "a\uFFFDb\uFFFD" });
    expect(row.result).toBe("a\uFFFDb\uFFFD");
  });

  it("NUL in an object's key and value is kept as U+2400, not cut", async () => {
    const { answer, row } = await invokeOnce("nul-object", 'export default async () => ({ ["k\\u0000ey"]: "v\\u0000al", nested: ["x\\u0000"] });');
    const expected = { "k\u2400ey": "v\u2400al", nested: ["x\u2400"] };
    expect(answer).toMatchObject({ status: "ok", error: null });
    expect(answer.result).toEqual(expected);
    expect(row.result).toEqual(expected);
  });

  it("a replaced JSON.stringify that answers text that is not JSON ends the run invalid_result", async () => {
    const { answer, row } = await invokeOnce(
      "replaced-stringify",
      'export default async () => { console.log("replacing"); JSON.stringify = () => "not json"; return { a: 1 }; };',
    );
    expect(answer).toMatchObject({ status: "error", result: null });
    expect(answer.error).toMatch(/^invalid_result: /);
    expect(answer.error).not.toContain("\n");
    expect(row.result).toBeNull();
  });

  it("a replaced JSON.stringify that smuggles an escaped NUL is stored with U+2400", async () => {
    const { answer, row } = await invokeOnce("replaced-nul", 'export default async () => { JSON.stringify = () => \'{"a":"x\\\\u0000y"}\'; return 1; };');
    expect(answer).toMatchObject({ status: "ok", result: { a: "x\u2400y" } });
    expect(row.result).toEqual({ a: "x\u2400y" });
  });

  it("a result nested deeper than 256 levels ends the run invalid_result; its logs are kept", async () => {
    const { answer, row } = await invokeOnce(
      "too-deep",
      "export default async () => { let v = 1; for (let i = 0; i < 300; i++) v = [v]; console.log('built'); return v; };",
    );
    expect(answer).toMatchObject({ status: "error", result: null });
    expect(answer.error).toMatch(/^invalid_result: .*deeper than 256 levels/);
    expect(row.logs.map((line: { message: string }) => line.message)).toEqual(["built"]);
    noSql(answer.error);
  });
});

describe("logs and errors", () => {
  it("a log line with a lone surrogate, and an error message with one, are stored", async () => {
    const { answer, row } = await invokeOnce(
      "log-surrogate",
      'export default async () => { console.log("x\\ud800y"); throw new Error("bad \\udc00 input"); };',
    );
    expect(answer.status).toBe("error");
    expect(answer.error).toMatch(/^uncaught_exception: .*bad .* input/);
    expect(row.logs).toHaveLength(1);
    expect(row.logs[0].message).toMatch(/^x\uFFFD+y$/);
  });

  // The sandbox engine copies a string out of QuickJS as a C string, so a NUL ends the copy there
  // (lib/ports/sandbox/worker/values.mjs readString, which another change owns). The host stores a NUL it
  // receives as U+2400; this turns into a plain `it` once the engine hands the whole line over.
  it("a NUL inside a log line keeps the line whole (U+2400 where the NUL was)", async () => {
    const { row } = await invokeOnce("log-nul", 'export default async () => { console.log("before\\u0000after"); return 1; };');
    expect(row.logs[0].message).toBe("before\u2400after");
  });
});
