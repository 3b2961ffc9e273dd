import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { automationRuns, messages } from "@/lib/db/schema";
import { advanceRun } from "@/lib/domain/automations/engine";
import { evaluateMessage } from "@/lib/domain/automations/evaluate";
import { registerJobs } from "@/lib/jobs";
import { runJob } from "@/lib/jobs/define";
import { automationEvaluateJob } from "@/lib/domain/automations/jobs";
import { createJobQueue } from "@/lib/ports/queue";
import type { JobCatalog, TypedJobQueue } from "@/lib/jobs/catalog";
import { servicesOf } from "@/lib/server/runtime";
import { startHarness, type Harness } from "../messages/support";
import { flowsProject, freePairSlot, insertAutomation, makeResumesDue, pendingResumes, runsOf, say, textsTo } from "./support";

/**
 * The run row and pg-boss's job rows are the whole state of a run: the worker is stopped while a run
 * waits (a delay, a wait_reply) and a fresh one, started against the same database, finishes it.
 */
let h: Harness;
const started: TypedJobQueue[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  for (const queue of started) await queue.stop();
  await h?.close();
});
beforeEach(() => h.app.clock.set(Date.now()));

const MINUTE = 60_000;

/** Stops the worker the app runs jobs with, then starts a fresh one (new pg-boss, new definitions) on the same database. */
async function restartWorker(): Promise<void> {
  const runtime = h.app.runtime;
  await runtime.ports.queue.stop();
  const fresh = await createJobQueue<JobCatalog>(runtime.database);
  started.push(fresh);
  // Everything that sends jobs (ingest, the jobs themselves) now goes to the fresh queue.
  runtime.ports.queue = fresh;
  registerJobs(fresh, servicesOf(runtime));
  await fresh.prepare();
}

async function passTime(ms: number, tester: string) {
  await freePairSlot(h, tester);
  h.app.clock.advance(ms);
  await makeResumesDue(h.app);
  await h.settle(20);
}

describe("a worker restart", () => {
  it("during a delay: the fresh worker ends the delay and the run completes", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "nudge",
      name: "Nudge",
      trigger: { type: "KEYWORD", keywords: ["hello"] },
      steps: [{ send_reply: { text: "Hi!" } }, { delay: { minutes: 10 } }, { send_reply: { text: "Back again, {{contact.name}}" } }],
    });
    await say(h, tester, "hello");
    const [waiting] = await runsOf(h.app, automation.id);
    expect(waiting).toMatchObject({ status: "WAITING", stepIndex: 1 });
    expect(await pendingResumes(h.app, waiting!.id)).toBe(1);

    await restartWorker();
    await passTime(10 * MINUTE, tester);
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "COMPLETED", stepIndex: 3 });
    expect(textsTo(h, tester)).toEqual(["Hi!", "Back again, Ana"]);
  });

  it("during a wait_reply: the fresh worker times it out", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "ask",
      name: "Ask",
      trigger: { type: "KEYWORD", keywords: ["ask"] },
      steps: [{ send_reply: { text: "Yes or no?" } }, { wait_reply: { timeout_hours: 1 } }, { send_reply: { text: "never" } }],
    });
    await say(h, tester, "ask");
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "WAITING", stepIndex: 1 });

    await restartWorker();
    await passTime(60 * MINUTE, tester);
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "TIMED_OUT", stepIndex: 1 });
    expect(textsTo(h, tester)).toEqual(["Yes or no?"]);
  });

  it("during a wait_reply: the customer's answer after the restart resumes the run", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "ask",
      name: "Ask",
      trigger: { type: "KEYWORD", keywords: ["ask"] },
      steps: [
        { send_reply: { text: "Yes or no?" } },
        { wait_reply: { options: [{ id: "y", label: "Yes" }] } },
        { send_reply: { text: "got {{vars.reply_option}}" } },
      ],
    });
    await say(h, tester, "ask");
    await restartWorker();
    await say(h, tester, "yes");
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "COMPLETED", stepIndex: 3 });
    expect(textsTo(h, tester)).toEqual(["Yes or no?", "got y"]);
  });
});

describe("a step repeated after a worker died between its send and its save", () => {
  it("sends nothing twice: the step's message is keyed by run and step", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "once",
      name: "Once",
      trigger: { type: "KEYWORD", keywords: ["once"] },
      steps: [{ send_reply: { text: "only once" } }],
    });
    await say(h, tester, "once");
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED", stepIndex: 1 });
    // As if the worker had died after the send committed, before step_index moved (and the step's
    // record, written by the same statement, with it): the job runs again.
    await h.app.db.update(automationRuns).set({ status: "RUNNING", stepIndex: 0, endedAt: null, stepLog: {} }).where(eq(automationRuns.id, run!.id));
    await advanceRun(h.app.systemCtx(), run!.id);
    await h.settle(20);
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "COMPLETED", stepIndex: 1 });
    const outbound = await h.app.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, run!.conversationId), eq(messages.direction, "outbound")));
    expect(outbound.map((m) => m.content)).toEqual(["only once"]);
    expect(outbound[0]!.idempotencyKey).toBe(`${run!.id}:step:0`);
    expect(textsTo(h, tester)).toEqual(["only once"]);
    // The repeated step is recorded once, linked to the one message.
    expect((await runsOf(h.app, automation.id))[0]!.stepLog).toEqual({ "0": expect.objectContaining({ status: "completed", message_id: outbound[0]!.id }) });
  });

  it("a retried evaluation of the same message starts no second run", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "any",
      name: "Any",
      trigger: { type: "KEYWORD", keywords: ["again"] },
      steps: [{ send_reply: { text: "hello" } }],
    });
    await say(h, tester, "again");
    const [run] = await runsOf(h.app, automation.id);
    await evaluateMessage(h.app.systemCtx(), run!.triggerMessageId);
    await h.settle(20);
    expect(await runsOf(h.app, automation.id)).toHaveLength(1);
    expect(textsTo(h, tester)).toEqual(["hello"]);
  });

  it("a retried evaluation whose first attempt died after the decision runs the steps it left", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "late",
      name: "Late",
      trigger: { type: "KEYWORD", keywords: ["late"] },
      steps: [{ send_reply: { text: "finally" } }],
    });
    // As if the first attempt had died after its decision: the run RUNNING at its first step, nothing sent.
    await say(h, tester, "late");
    const [first] = await runsOf(h.app, automation.id);
    await h.app.db.update(automationRuns).set({ status: "RUNNING", stepIndex: 0, endedAt: null }).where(eq(automationRuns.id, first!.id));
    await h.app.db.delete(messages).where(and(eq(messages.conversationId, first!.conversationId), eq(messages.direction, "outbound")));
    await freePairSlot(h, tester);
    await runJob(automationEvaluateJob, servicesOf(h.app.runtime), { message_id: first!.triggerMessageId }, { id: "retry", retryCount: 1, retryLimit: 5 });
    await h.settle(20);
    expect(await runsOf(h.app, automation.id)).toHaveLength(1);
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "COMPLETED", stepIndex: 1 });
    expect(textsTo(h, tester)).toEqual(["finally", "finally"]);
  });

  it("a retried evaluation of a wait_reply's answer neither answers again nor starts a run", async () => {
    const { seeded, tester } = await flowsProject(h);
    const ask = await insertAutomation(h.app, seeded.projectId, {
      key: "ask",
      name: "Ask",
      trigger: { type: "KEYWORD", keywords: ["ask"] },
      steps: [{ wait_reply: {} }, { send_reply: { text: "thanks" } }],
    });
    const fallback = await insertAutomation(h.app, seeded.projectId, {
      key: "any",
      name: "Any",
      trigger: { type: "ANY_MESSAGE" },
      steps: [{ send_reply: { text: "fallback" } }],
    });
    await say(h, tester, "ask");
    await say(h, tester, "my answer");
    const [run] = await runsOf(h.app, ask.id);
    expect(run).toMatchObject({ status: "COMPLETED", variables: { reply_text: "my answer", reply_option: null } });
    await evaluateMessage(h.app.systemCtx(), run!.variables.reply_message_id as string);
    await h.settle(20);
    expect(await runsOf(h.app, fallback.id)).toEqual([]);
    expect((await runsOf(h.app, ask.id))[0]!.status).toBe("COMPLETED");
    expect(textsTo(h, tester)).toEqual(["thanks"]);
  });
});
