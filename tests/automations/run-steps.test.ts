import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { functionInvocations, messages } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import { deployed } from "../functions/support";
import { flowsProject, freePairSlot, insertAutomation, makeResumesDue, runsOf, say, textsTo } from "./support";

/** Each run's steps (GET /automation-runs/{id}, GET /automations/{id}/runs): outcome, timing, variables after, what each produced. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());
beforeEach(() => h.app.clock.set(Date.now()));

const MINUTE = 60_000;
const STATUS = `export default async (event) => ({ status: event.variables.reply_option === "last" ? "shipped" : "unknown", asked: event.variables.reply_text });`;
const BROKEN = `export default async () => { throw new Error("no orders today"); };`;

async function passTime(ms: number, tester: string) {
  await freePairSlot(h, tester);
  h.app.clock.advance(ms);
  await makeResumesDue(h.app);
  await h.settle(20);
}

const getRun = (key: string, id: string) => h.app.call("GET", `/automation-runs/${id}`, { key });

async function storedId(providerId: string): Promise<string> {
  const [row] = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.platformMessageId, providerId));
  return row!.id;
}

describe("GET /automation-runs/{id}", () => {
  it("keyword → two buttons → wait → run_function with the answer → reply with its result: each step linked to its message or invocation", async () => {
    const { seeded, tester } = await flowsProject(h);
    const fn = await deployed(h.app, seeded.key, "order-status", STATUS);
    const created = await h.app.call("POST", "/automations", {
      key: seeded.key,
      body: {
        key: "order",
        name: "Order status",
        trigger: { type: "KEYWORD", keywords: ["order"] },
        steps: [
          {
            send_reply: {
              text: "Which order?",
              buttons: [
                { id: "last", title: "Last order" },
                { id: "other", title: "Another" },
              ],
            },
          },
          {
            wait_reply: {
              options: [
                { id: "last", label: "Last order" },
                { id: "other", label: "Another" },
              ],
            },
          },
          { run_function: { function: "order-status", result_mode: "variables", variable_name: "order" } },
          { send_reply: { text: "Your order is {{vars.order.status}}." } },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const trigger = await say(h, tester, "where is my order");
    const [run] = await runsOf(h.app, created.body.id);
    const reader = await h.app.addKey(seeded, ["config:read"]);

    const waiting = await getRun(reader, run!.id);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({ status: "WAITING", step_index: 1, trigger_message_id: await storedId(trigger.message_id) });
    const [asked] = await h.app.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, run!.conversationId), eq(messages.direction, "outbound")));
    expect(waiting.body.steps).toEqual([
      expect.objectContaining({
        index: 0,
        type: "send_reply",
        status: "completed",
        message_id: asked!.id,
        invocation_id: null,
        error: null,
        variables_after: {},
      }),
      expect.objectContaining({ index: 1, type: "wait_reply", status: "waiting", ended_at: null, duration_ms: null, message_id: null }),
    ]);
    expect(asked!.type).toBe("interactive");

    h.app.clock.advance(2 * MINUTE);
    const answer = await say(h, tester, { type: "button_reply", reply: { id: "last", title: "Last order" } });
    const answerId = await storedId(answer.message_id);
    expect(textsTo(h, tester)).toEqual(["Which order?", "Your order is shipped."]);
    const done = await getRun(reader, run!.id);
    expect(done.body.status).toBe("COMPLETED");
    const [invocation] = await h.app.db.select().from(functionInvocations).where(eq(functionInvocations.functionId, fn.id));
    const [told] = await h.app.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, run!.conversationId), eq(messages.content, "Your order is shipped.")));
    const answered = { reply_text: "Last order", reply_option: "last", reply_message_id: answerId };
    const withOrder = { ...answered, order: { status: "shipped", asked: "Last order" } };
    expect(done.body.steps.map((s: { index: number; status: string }) => `${s.index}:${s.status}`)).toEqual([
      "0:completed",
      "1:completed",
      "2:completed",
      "3:completed",
    ]);
    expect(done.body.steps[1]).toMatchObject({ type: "wait_reply", message_id: answerId, variables_after: answered, duration_ms: 2 * MINUTE });
    expect(Date.parse(done.body.steps[1].ended_at) - Date.parse(done.body.steps[1].started_at)).toBe(2 * MINUTE);
    expect(done.body.steps[2]).toMatchObject({
      type: "run_function",
      invocation_id: invocation!.id,
      message_id: null,
      variables_after: withOrder,
      error: null,
    });
    expect(done.body.steps[3]).toMatchObject({ type: "send_reply", message_id: told!.id, invocation_id: null, variables_after: withOrder });
    for (const s of done.body.steps) expect(typeof s.duration_ms).toBe("number");

    // The run list carries the same steps.
    const listed = await h.app.call("GET", `/automations/${created.body.id}/runs`, { key: reader });
    expect(listed.body.data[0]).toEqual(done.body);
  });

  it("a failing function: the step is failed with the run's error, linked to its invocation", async () => {
    const { seeded, tester } = await flowsProject(h);
    const fn = await deployed(h.app, seeded.key, "broken", BROKEN);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "broken",
      name: "Broken",
      trigger: { type: "KEYWORD", keywords: ["go"] },
      steps: [{ send_reply: { text: "trying" } }, { run_function: { function: "broken" } }, { send_reply: { text: "never" } }],
    });
    await say(h, tester, "go");
    const [run] = await runsOf(h.app, automation.id);
    const got = (await getRun(seeded.key, run!.id)).body;
    const [invocation] = await h.app.db.select().from(functionInvocations).where(eq(functionInvocations.functionId, fn.id));
    expect(got).toMatchObject({ status: "FAILED", step_index: 1, error: { code: "function_error" } });
    expect(got.steps).toHaveLength(2);
    expect(got.steps[1]).toMatchObject({ index: 1, type: "run_function", status: "failed", invocation_id: invocation!.id, error: got.error });
  });

  it("a delay: waiting, then completed with how long it waited; a wait_reply with no answer: timed_out", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "slow",
      name: "Slow",
      trigger: { type: "KEYWORD", keywords: ["slow"] },
      steps: [{ delay: { minutes: 5 } }, { wait_reply: { timeout_hours: 1 } }],
    });
    await say(h, tester, "slow");
    const [run] = await runsOf(h.app, automation.id);
    expect((await getRun(seeded.key, run!.id)).body.steps).toEqual([expect.objectContaining({ index: 0, type: "delay", status: "waiting", ended_at: null })]);
    await passTime(5 * MINUTE, tester);
    const waited = (await getRun(seeded.key, run!.id)).body.steps;
    expect(waited[0]).toMatchObject({ type: "delay", status: "completed", duration_ms: 5 * MINUTE });
    expect(waited[1]).toMatchObject({ type: "wait_reply", status: "waiting" });
    await passTime(60 * MINUTE, tester);
    const timedOut = (await getRun(seeded.key, run!.id)).body;
    expect(timedOut.status).toBe("TIMED_OUT");
    expect(timedOut.steps[1]).toMatchObject({ type: "wait_reply", status: "timed_out", duration_ms: 60 * MINUTE, ended_at: timedOut.ended_at });
  });

  it("a run a newer one cancelled: the step it waited at is cancelled, when the run ended", async () => {
    const { seeded, tester } = await flowsProject(h);
    const slow = await insertAutomation(h.app, seeded.projectId, {
      key: "slow",
      name: "Slow",
      trigger: { type: "KEYWORD", keywords: ["slow"] },
      steps: [{ delay: { minutes: 1 } }, { send_reply: { text: "never" } }],
    });
    await insertAutomation(h.app, seeded.projectId, {
      key: "other",
      name: "Other",
      trigger: { type: "KEYWORD", keywords: ["other"] },
      steps: [{ send_reply: { text: "o" } }],
    });
    await say(h, tester, "slow");
    h.app.clock.advance(10_000);
    await say(h, tester, "other");
    const [run] = await runsOf(h.app, slow.id);
    const got = (await getRun(seeded.key, run!.id)).body;
    expect(got.status).toBe("CANCELLED");
    expect(got.steps).toEqual([
      expect.objectContaining({ index: 0, type: "delay", status: "cancelled", ended_at: got.ended_at, duration_ms: 10_000, error: null }),
    ]);
  });

  it("another project's run is a 404; it needs config:read", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "k",
      name: "K",
      trigger: { type: "KEYWORD", keywords: ["k"] },
      steps: [{ send_reply: { text: "k" } }],
    });
    await say(h, tester, "k");
    const [run] = await runsOf(h.app, automation.id);
    const other = await h.app.addProject(seeded);
    const hidden = await getRun(other.key, run!.id);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ error: "not_found", message: `No automation run with id '${run!.id}'.` });
    const noScope = await h.app.addKey(seeded, ["conversations:read"]);
    expect((await getRun(noScope, run!.id)).body).toMatchObject({ error: "insufficient_scope", required_scope: "config:read" });
  });
});
