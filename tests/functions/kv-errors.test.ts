import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kvBridge } from "@/lib/domain/functions/kv";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "./support";

/**
 * env.KV refuses what Postgres cannot store up front, like its other limits, and any other failure
 * reaches the function through the one error boundary (lib/public-error.ts): never SQL or parameters.
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

const SQL_TEXT = /insert into|select |delete from|params:|Failed query|function_kv/i;

/** Runs `calls` (expressions on env.KV) in a function and answers what each one rejected with. */
async function rejections(slug: string, calls: string[]): Promise<string[]> {
  const body = calls.map((call) => `await ${call}.then(() => "resolved", (e) => String(e && e.message))`).join(", ");
  const fn = await deployed(app, seeded.key, slug, `export default async () => [${body}];`);
  const res = await app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} });
  expect(res.status).toBe(200);
  expect(res.body.status, res.body.error).toBe("ok");
  return res.body.result;
}

describe("env.KV refuses what it cannot store, with a clear message", () => {
  it("a NUL in a key, for every operation", async () => {
    const messages = await rejections("kv-nul-key", [
      'env.KV.put("a\\u0000b", "v")',
      'env.KV.get("a\\u0000b")',
      'env.KV.delete("a\\u0000b")',
      'env.KV.list({ prefix: "a\\u0000" })',
    ]);
    expect(messages.slice(0, 3)).toEqual(Array(3).fill("KV keys cannot contain a NUL character (\\u0000)"));
    expect(messages[3]).toBe("KV list prefixes cannot contain a NUL character (\\u0000)");
    for (const message of messages) expect(message).not.toMatch(SQL_TEXT);
  });

  it("a NUL in a value, and a lone surrogate in a key (it would be stored as another key)", async () => {
    const messages = await rejections("kv-nul-value", ['env.KV.put("k", "v\\u0000")', 'env.KV.put("k\\ud800", "v")']);
    expect(messages).toEqual(["KV values cannot contain a NUL character (\\u0000)", "KV keys cannot contain a lone UTF-16 surrogate (invalid Unicode)"]);
  });
});

describe("env.KV's other failures", () => {
  it("a database error (the function deleted under a run) rejects with the public message only", async () => {
    const kv = kvBridge(app.systemCtx(), "fn_deleted_meanwhile");
    const failure = await kv.put("greeting", "hello Ana +15550001234").then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toBe("env.KV failed: internal_error: Something went wrong on our side.");
    expect(failure!.message).not.toContain("+15550001234");
  });
});
