import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterSource } from "@/components/functions/model/starters";
import { FUNCTION_RUNTIMES, FUNCTION_TRIGGER_TYPES } from "@/lib/shared/functions";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "../functions/support";

/**
 * The editor's starters through the real API and sandbox: each deploys as it is, is detected as the
 * runtime it was written for, and answers a test and an invoke with what its comments promise.
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

const CONTACT = { id: "ct_starter", phone: "+15550002222", name: "Ana" };
const STARTERS = FUNCTION_TRIGGER_TYPES.flatMap((trigger) => FUNCTION_RUNTIMES.map((runtime) => ({ trigger, runtime })));

let created = 0;

async function deployStarter(trigger: (typeof FUNCTION_TRIGGER_TYPES)[number], runtime: (typeof FUNCTION_RUNTIMES)[number]) {
  const slug = `starter-${trigger.toLowerCase().replace("_", "-")}-${runtime.toLowerCase()}-${++created}`;
  const fn = await deployed(app, seeded.key, slug, starterSource(trigger, runtime), trigger);
  const read = await app.call("GET", `/functions/${fn.id}`, { key: seeded.key });
  expect(read.body.runtime).toBe(runtime);
  return fn;
}

const run = (id: string, kind: "test" | "invoke", body: unknown) => app.call("POST", `/functions/${id}/${kind}`, { key: seeded.key, body });

describe("the starters, deployed and run", () => {
  it.each(STARTERS)("$trigger / $runtime deploys as $runtime and answers a test without an error", async ({ trigger, runtime }) => {
    const fn = await deployStarter(trigger, runtime);
    const res = await run(fn.id, "test", { text: "where is my order", contact: CONTACT });
    expect(res.status).toBe(200);
    expect(res.body, JSON.stringify(res.body.error)).toMatchObject({ status: "ok", error: null });
    expect(typeof res.body.result.text).toBe("string");
    expect(res.body.logs.length).toBeGreaterThan(0);
  });

  it.each(FUNCTION_RUNTIMES)("KEYWORD / %s greets the contact by name and quotes the text, and reads invoke arguments", async (runtime) => {
    const fn = await deployStarter("KEYWORD", runtime);
    expect((await run(fn.id, "test", { text: "refunds", contact: CONTACT })).body.result).toEqual({ text: 'Hi Ana! You asked about "refunds".' });
    expect((await run(fn.id, "invoke", { arguments: { text: "prices" } })).body.result).toEqual({ text: 'Hi there! You asked about "prices".' });
  });

  it.each(FUNCTION_RUNTIMES)("WELCOME / %s remembers in KV whom it greeted", async (runtime) => {
    const fn = await deployStarter("WELCOME", runtime);
    const first = await run(fn.id, "test", { text: "hi", contact: CONTACT });
    expect(first.body.result).toEqual({ text: "Welcome, Ana! Reply HELP to see what we can do." });
    const second = await run(fn.id, "test", { text: "hi again", contact: CONTACT });
    expect(second.body.result).toEqual({ text: "Welcome back!" });
  });

  it.each(FUNCTION_RUNTIMES)("ANY_MESSAGE / %s counts the words of a message or of the text argument", async (runtime) => {
    const fn = await deployStarter("ANY_MESSAGE", runtime);
    expect((await run(fn.id, "test", { text: "  one two   three " })).body.result).toEqual({ text: "Got it: 3 word(s).", words: 3 });
    expect((await run(fn.id, "invoke", { arguments: { text: "a b" } })).body.result).toEqual({ text: "Got it: 2 word(s).", words: 2 });
  });
});
