import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { AUTOMATION_EVALUATE_JOB } from "@/lib/domain/automations/runs";
import { judgeAutomations } from "@/lib/domain/automations/verdicts";
import { startHarness, type Harness } from "../messages/support";
import { testerNumber } from "../messages/send-support";
import { conversationOf, flowsProject, freePairSlot, insertAutomation, runsOf, say, setProjectRouting } from "./support";

/** GET /messages/{id}/automations: every reason, as decided when the message came (end to end through the simulator). */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const reply = (text: string) => [{ send_reply: { text } }];
const keyword = (key: string, words: string[], extra: Record<string, unknown> = {}) => ({
  key,
  name: `Name ${key}`,
  trigger: { type: "KEYWORD" as const, keywords: words },
  steps: reply(key),
  ...extra,
});

/** Our id of the message the simulated customer sent (the simulator answers the provider's). */
async function storedId(providerId: string): Promise<string> {
  const [row] = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.platformMessageId, providerId));
  return row!.id;
}

const explain = (key: string, messageId: string) => h.app.call("GET", `/messages/${messageId}/automations`, { key });
type Item = { key: string; result: string; reason: string | null; detail: string; position: number; active: boolean };
const verdicts = (body: { automations: Item[] }) => body.automations.map((a) => `${a.key}:${a.result}:${a.reason}`);

describe("GET /messages/{id}/automations: an evaluated message", () => {
  it("started: the one that ran, and why each other did not (inactive, keyword_not_matched, not_first_message, earlier_match, superseded)", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("any") });
      await insertAutomation(h.app, projectId, { key: "hello", name: "Hello", trigger: { type: "WELCOME" }, steps: reply("welcome") });
      await insertAutomation(h.app, projectId, keyword("off", ["price"], { active: false }));
      await insertAutomation(h.app, projectId, keyword("other", ["hours"]));
      await insertAutomation(h.app, projectId, keyword("price", ["price"]));
      await insertAutomation(h.app, projectId, keyword("price-too", ["price"]));
    });
    const sent = await say(h, tester, "what's the price?");
    const messageId = await storedId(sent.message_id);
    const readOnly = await h.app.addKey(seeded, ["config:read"]);
    const res = await explain(readOnly, messageId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [run] = await runsOf(h.app, res.body.automations[4].automation_id);
    expect(res.body).toMatchObject({
      object: "automation_evaluation",
      message_id: messageId,
      conversation_id: await conversationOf(h.app, seeded.key, tester),
      channel_id: "ch_sandbox",
      routing_mode: "FLOWS",
      outcome: "started",
      run_id: run!.id,
      reason: null,
      detail: `'price' started run ${run!.id}.`,
    });
    expect(Date.parse(res.body.decided_at)).toBe(h.app.clock.now().getTime());
    expect(verdicts(res.body)).toEqual([
      "any:matched_not_run:superseded",
      "hello:not_matched:not_first_message",
      "off:skipped:inactive",
      "other:not_matched:keyword_not_matched",
      "price:ran:null",
      "price-too:matched_not_run:earlier_match",
    ]);
    expect(res.body.automations[5].detail).toContain("'price' comes before it in config order");
    expect(res.body.automations.map((a: Item) => a.position)).toEqual([0, 1, 2, 3, 4, 5]);

    // What happened then, not judged again: switching 'price' off and renaming it changes nothing here.
    const priceId = res.body.automations[4].automation_id;
    expect((await h.app.call("PATCH", `/automations/${priceId}`, { key: seeded.key, body: { active: false, name: "Renamed" } })).status).toBe(200);
    const again = await explain(seeded.key, messageId);
    expect(again.body).toEqual(res.body);
  });

  it("no_match: nothing applied; the join (the contact's first message) was WELCOME's", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "hello", name: "Hello", trigger: { type: "WELCOME" }, steps: reply("welcome") });
      await insertAutomation(h.app, projectId, keyword("price", ["price"]));
    });
    const sent = await say(h, tester, "good morning");
    const res = await explain(seeded.key, await storedId(sent.message_id));
    expect(res.body).toMatchObject({
      outcome: "none",
      run_id: null,
      reason: "no_match",
      detail: "No active automation's trigger applied to this message, so nothing ran.",
    });
    expect(verdicts(res.body)).toEqual(["hello:not_matched:not_first_message", "price:not_matched:keyword_not_matched"]);
    const [join] = await h.app.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.projectId, seeded.projectId), eq(messages.direction, "inbound")))
      .orderBy(messages.id)
      .limit(1);
    expect(verdicts((await explain(seeded.key, join!.id)).body)).toEqual(["hello:ran:null", "price:not_matched:keyword_not_matched"]);
  });

  it("resumed: a run waiting for a reply took the message (run_waiting)", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(
        h.app,
        projectId,
        keyword("ask", ["ask"], { steps: [{ send_reply: { text: "yes or no?" } }, { wait_reply: {} }, { send_reply: { text: "ok" } }] }),
      );
      await insertAutomation(h.app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("any") });
    });
    await say(h, tester, "ask");
    const sent = await say(h, tester, "yes");
    const res = await explain(seeded.key, await storedId(sent.message_id));
    const [ask] = (await h.app.call("GET", "/automations", { key: seeded.key })).body.data;
    const [run] = await runsOf(h.app, ask.id);
    expect(res.body).toMatchObject({ outcome: "resumed", run_id: run!.id, reason: "run_waiting" });
    expect(res.body.detail).toContain("was waiting for a reply");
    expect(verdicts(res.body)).toEqual(["ask:ran:run_waiting", "any:skipped:run_waiting"]);
  });

  it("handoff_on: handoff was on when it came; nothing was judged", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("any") });
    });
    const conversationId = await conversationOf(h.app, seeded.key, tester);
    await h.app.call("POST", `/conversations/${conversationId}/handoff`, { key: seeded.key, body: { enabled: true, reason: "agent" } });
    const sent = await say(h, tester, "anyone?");
    const res = await explain(seeded.key, await storedId(sent.message_id));
    expect(res.body).toMatchObject({ outcome: "none", reason: "handoff_on", run_id: null });
    expect(verdicts(res.body)).toEqual(["any:skipped:handoff_on"]);
  });
});

describe("GET /messages/{id}/automations: a message never evaluated, from the facts stored with it", () => {
  it("routing_not_flows, with the mode it arrived under (changing the routing later changes nothing)", async () => {
    const seeded = await h.app.seed();
    await insertAutomation(h.app, seeded.projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("any") });
    await setProjectRouting(h.app, seeded.projectId, "EXTERNAL");
    const tester = testerNumber();
    await h.join(seeded.projectId, tester, "Ana");
    const sent = await say(h, tester, "hello");
    const messageId = await storedId(sent.message_id);
    await setProjectRouting(h.app, seeded.projectId, "FLOWS");
    const res = await explain(seeded.key, messageId);
    expect(res.body).toMatchObject({ routing_mode: "EXTERNAL", outcome: "none", run_id: null, reason: "routing_not_flows" });
    expect(res.body.detail).toContain("routed EXTERNAL");
    expect(verdicts(res.body)).toEqual(["any:skipped:routing_not_flows"]);
    const [row] = await h.app.db.select({ createdAt: messages.createdAt }).from(messages).where(eq(messages.id, messageId));
    expect(res.body.decided_at).toBe(row!.createdAt.toISOString());
  });

  it("not_customer_turn: a reaction", async () => {
    const { seeded, tester } = await flowsProject(h);
    const original = await say(h, tester, "first");
    const reaction = await say(h, tester, { type: "reaction", reaction: { message_id: original.message_id, emoji: "👍" } });
    const res = await explain(seeded.key, await storedId(reaction.message_id));
    expect(res.body).toMatchObject({ routing_mode: "FLOWS", outcome: "none", reason: "not_customer_turn", automations: [] });
    expect(res.body.detail).toContain("A reaction message is not a new customer turn");
  });

  it("pending until the job decides; not_recorded for a message stored before arrival facts were kept", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("any") });
    });
    await freePairSlot(h, tester);
    const sent = await h.customer({ from: tester, name: "Ana", type: "text", text: "hold on" });
    // Ingest runs; the evaluation job waits (it is due in an hour), as when workers lag.
    let messageId: string | null = null;
    for (let i = 0; i < 20 && !messageId; i++) {
      await h.app.runtime.ports.queue.drain({ maxJobs: 1 });
      const [row] = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.platformMessageId, sent.message_id));
      messageId = row?.id ?? null;
    }
    await h.app.db.execute(sql`update pgboss.job set start_after = now() + interval '1 hour' where name = ${AUTOMATION_EVALUATE_JOB} and state = 'created'`);
    const pending = await explain(seeded.key, messageId!);
    expect(pending.body).toMatchObject({ outcome: "none", reason: "pending", decided_at: null, run_id: null });
    expect(verdicts(pending.body)).toEqual(["any:skipped:pending"]);

    await h.app.db.execute(sql`update pgboss.job set start_after = now() where name = ${AUTOMATION_EVALUATE_JOB} and state = 'created'`);
    await h.settle(20);
    expect((await explain(seeded.key, messageId!)).body).toMatchObject({ outcome: "started", reason: null });

    // A message stored before the migration that added arrival facts has none.
    const older = await say(h, tester, "older");
    const olderId = await storedId(older.message_id);
    await h.app.db.update(messages).set({ arrivalRoutingMode: null, arrivalHandoff: null }).where(eq(messages.id, olderId));
    await h.app.db.execute(sql`delete from automation_evaluations where message_id = ${olderId}`);
    expect((await explain(seeded.key, olderId)).body).toMatchObject({ outcome: "none", reason: "not_recorded", routing_mode: null, decided_at: null });
  });
});

describe("GET /messages/{id}/automations: refusals", () => {
  it("another project's message is a 404; a message the business sent is a 422; it needs config:read", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("any") });
    });
    const sent = await say(h, tester, "hi");
    const messageId = await storedId(sent.message_id);
    const other = await h.app.addProject(seeded);
    const hidden = await explain(other.key, messageId);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe("not_found");

    const [outbound] = await h.app.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.projectId, seeded.projectId), eq(messages.direction, "outbound")))
      .limit(1);
    const refused = await explain(seeded.key, outbound!.id);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: "unprocessable", message_id: outbound!.id });
    expect(refused.body.message).toContain("customer (inbound) messages only");

    const noScope = await h.app.addKey(seeded, ["conversations:read"]);
    expect((await explain(noScope, messageId)).body).toMatchObject({ error: "insufficient_scope", required_scope: "config:read" });
  });
});

describe("judgeAutomations", () => {
  const a = (id: string, trigger: Record<string, unknown>, active = true) => ({ id, trigger: trigger as never, active });
  it("tells the winner from each other automation, whatever the types' order in config", () => {
    const list = [
      a("welcome", { type: "WELCOME" }),
      a("any", { type: "ANY_MESSAGE" }),
      a("any-2", { type: "ANY_MESSAGE" }),
      a("off", { type: "ANY_MESSAGE" }, false),
    ];
    const first = judgeAutomations(list, ["hi"], true);
    expect(first.winner?.id).toBe("welcome");
    expect(first.verdicts.map((v) => `${v.result}:${v.reason}`)).toEqual([
      "ran:null",
      "matched_not_run:superseded",
      "matched_not_run:superseded",
      "skipped:inactive",
    ]);
    const later = judgeAutomations(list, ["hi"], false);
    expect(later.verdicts.map((v) => `${v.result}:${v.reason}`)).toEqual([
      "not_matched:not_first_message",
      "ran:null",
      "matched_not_run:earlier_match",
      "skipped:inactive",
    ]);
    expect(judgeAutomations([a("off", { type: "ANY_MESSAGE" }, false)], ["hi"], false)).toEqual({
      winner: null,
      verdicts: [{ result: "skipped", reason: "inactive" }],
    });
  });
});
