import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import { contacts, functionInvocations, functionKv } from "@/lib/db/schema";
import { failRunAfterLastRetry } from "@/lib/domain/automations/engine";
import { newId } from "@/lib/ids";
import { startHarness, type Harness } from "../messages/support";
import { deployed } from "../functions/support";
import { flowsProject, insertAutomation, runsOf, say } from "./support";

/**
 * A run_function step whose function returns something Postgres could not store: the function runs
 * once (each run writes one KV key), the run records it, and a failure is the run's, never a retried
 * job's. No SQL text or parameters ever reach the run's error (docs/api-decisions.md "Errors").
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** The function's body after it has counted its own run in env.KV. */
const counted = (body: string) => `export default async () => { await env.KV.put("run-" + crypto.randomUUID(), "1"); ${body} };`;

async function runsOfFunction(functionId: string) {
  const [kv] = await h.app.db.select({ n: count() }).from(functionKv).where(eq(functionKv.functionId, functionId));
  const logged = await h.app.db
    .select()
    .from(functionInvocations)
    .where(and(eq(functionInvocations.functionId, functionId), eq(functionInvocations.eventType, "automation")));
  return { ran: kv!.n, logged };
}

const SQL_TEXT = /insert into|select |params:|Failed query/i;

describe("run_function with a result Postgres could not store", () => {
  it("a lone surrogate and a NUL in the result: stored replaced, the function ran once, the run completes", async () => {
    const { seeded, tester } = await flowsProject(h);
    const fn = await deployed(h.app, seeded.key, "odd-text", counted('return { note: "a\\ud800b", ["k\\u0000"]: "v\\u0000" };'));
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "odd",
      name: "Odd",
      trigger: { type: "KEYWORD", keywords: ["odd"] },
      steps: [{ run_function: { function: "odd-text", result_mode: "variables", variable_name: "out" } }],
    });
    await say(h, tester, "odd");
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED" });
    expect(run!.variables).toEqual({ out: { note: "a\uFFFDb", "k\u2400": "v\u2400" } });
    const { ran, logged } = await runsOfFunction(fn.id);
    expect(ran).toBe(1);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ status: "ok", result: { note: "a\uFFFDb", "k\u2400": "v\u2400" } });
  });

  it("a replaced JSON.stringify: the run fails once with invalid_result in plain words, no SQL, and the run is logged", async () => {
    const { seeded, tester } = await flowsProject(h);
    const fn = await deployed(h.app, seeded.key, "liar", counted('JSON.stringify = () => "{not json"; return { a: 1 };'));
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "liar",
      name: "Liar",
      trigger: { type: "KEYWORD", keywords: ["liar"] },
      steps: [{ run_function: { function: "liar", result_mode: "reply" } }, { send_reply: { text: "never" } }],
    });
    await say(h, tester, "liar");
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "FAILED", stepIndex: 0, error: { code: "function_error" } });
    expect(run!.error!.message).toContain("invalid_result: ");
    expect(run!.error!.message).not.toMatch(SQL_TEXT);
    const { ran, logged } = await runsOfFunction(fn.id);
    expect(ran).toBe(1);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ status: "error", result: null });
    expect(logged[0]!.error).toMatch(/^invalid_result: /);
  });
});

describe("a run failed by an unexpected error", () => {
  it("stores the public message: the database error's SQL and the contact's data stay out of the run", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "wait",
      name: "Wait",
      trigger: { type: "KEYWORD", keywords: ["wait"] },
      steps: [{ wait_reply: { timeout_hours: 1 } }],
    });
    await say(h, tester, "wait");
    const [waiting] = await runsOf(h.app, automation.id);
    expect(waiting).toMatchObject({ status: "WAITING" });
    // A real driver error, as a step's write would raise it: the query and its parameters inside.
    const failure = await h.app.db
      .insert(contacts)
      .values({
        id: newId("contact"),
        projectId: seeded.projectId,
        organizationId: seeded.orgId,
        channelId: "ch_sandbox",
        platform: "PLATFORM_A",
        phone: "+15550009999",
        name: "Secret\u0000Name",
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(String((failure as Error).message)).toMatch(/insert into/);
    await failRunAfterLastRetry(h.app.systemCtx(), waiting!.id, { id: "job_1", retryCount: 3, retryLimit: 3 }, failure);
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "FAILED", error: { code: "internal_error" } });
    expect(run!.error!.message).not.toMatch(SQL_TEXT);
    expect(run!.error!.message).not.toContain("15550009999");
    expect(run!.error!.message).not.toContain("Secret");
    expect(run!.error!.message).not.toContain(tester);
  });
});
