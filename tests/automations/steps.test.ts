import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import { createFlow, publish } from "../flows/support";
import { conversationOf, flowsProject, freePairSlot, insertAutomation, makeResumesDue, runsOf, say, sentTo, textsTo } from "./support";

/** Each step kind end to end: the customer writes through the simulator, the jobs run, replies reach it. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());
// Tests move the clock (delays, timeouts, the 24 h window); each starts from the wall clock again.
beforeEach(() => h.app.clock.set(Date.now()));

const MINUTE = 60_000;

/** Time passes beyond a run's wait: the clock moves, the resume job comes due, and everything it causes runs. */
async function passTime(ms: number, tester: string) {
  await freePairSlot(h, tester);
  h.app.clock.advance(ms);
  await makeResumesDue(h.app);
  await h.settle(20);
}

describe("send_reply", () => {
  it("fills the placeholders and sends up to 3 buttons as an interactive reply-button message", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "menu",
      name: "Menu",
      trigger: { type: "KEYWORD", keywords: ["menu"] },
      steps: [
        {
          send_reply: {
            text: "Hi {{contact.name}} ({{contact.phone}}), you wrote '{{message.text}}'.{{vars.none}} Pick one:",
            buttons: [
              { id: "b_sales", title: "Sales" },
              { id: "b_support", title: "Support" },
              { id: "b_other", title: "Other" },
            ],
          },
        },
      ],
    });
    await say(h, tester, "Menu please");
    const [sent] = sentTo(h, tester);
    expect(sent!.type).toBe("interactive");
    expect((sent!.body as any).interactive).toMatchObject({
      type: "button",
      body: { text: `Hi Ana (+${tester}), you wrote 'Menu please'. Pick one:` },
      action: {
        buttons: [
          { type: "reply", reply: { id: "b_sales", title: "Sales" } },
          { type: "reply", reply: { id: "b_support", title: "Support" } },
          { type: "reply", reply: { id: "b_other", title: "Other" } },
        ],
      },
    });
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED", stepIndex: 1, error: null });
    // The message is an ordinary outbound message of the conversation, keyed by run and step.
    const history = await h.app.call("GET", `/conversations/${run!.conversationId}/messages`, { key: seeded.key });
    expect(history.body.data[0]).toMatchObject({ direction: "outbound", type: "interactive" });
  });

  it("outside the 24 h window the step fails with outside_messaging_window and nothing is sent", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "later",
      name: "Later",
      trigger: { type: "KEYWORD", keywords: ["later"] },
      steps: [{ send_reply: { text: "See you tomorrow" } }, { delay: { minutes: 25 * 60 } }, { send_reply: { text: "Too late" } }],
    });
    await say(h, tester, "later");
    await passTime(25 * 60 * MINUTE + MINUTE, tester);
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "FAILED", stepIndex: 2 });
    expect(run!.error).toMatchObject({ code: "outside_messaging_window" });
    expect(run!.endedAt).toBeInstanceOf(Date);
    expect(textsTo(h, tester)).toEqual(["See you tomorrow"]);
  });
});

describe("delay", () => {
  it("waits (WAITING, wait_until) and runs on once its time has come", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "nudge",
      name: "Nudge",
      trigger: { type: "KEYWORD", keywords: ["hello"] },
      steps: [{ send_reply: { text: "Hi!" } }, { delay: { minutes: 5 } }, { send_reply: { text: "Still there, {{contact.name}}?" } }],
    });
    const started = h.app.clock.now();
    await say(h, tester, "hello");
    let [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "WAITING", stepIndex: 1 });
    expect(run!.waitUntil!.getTime()).toBe(started.getTime() + 5 * MINUTE);

    await passTime(4 * MINUTE, tester);
    expect(textsTo(h, tester)).toEqual(["Hi!"]); // not yet: the job came due early, the run is still WAITING
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "WAITING" });

    await passTime(MINUTE, tester);
    [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED", stepIndex: 3 });
    expect(textsTo(h, tester)).toEqual(["Hi!", "Still there, Ana?"]);
  });

  it("a run cancelled during its delay stays cancelled when the delay ends", async () => {
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
      steps: [{ send_reply: { text: "other" } }],
    });
    await say(h, tester, "slow");
    await say(h, tester, "other");
    await passTime(2 * MINUTE, tester);
    expect((await runsOf(h.app, slow.id))[0]).toMatchObject({ status: "CANCELLED", stepIndex: 0 });
    expect(textsTo(h, tester)).toEqual(["other"]);
  });
});

describe("wait_reply", () => {
  async function quiz() {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "plan",
      name: "Plan",
      trigger: { type: "KEYWORD", keywords: ["plan"] },
      steps: [
        {
          send_reply: {
            text: "Which plan?",
            buttons: [
              { id: "basic", title: "Basic" },
              { id: "pro", title: "Pro" },
            ],
          },
        },
        {
          wait_reply: {
            timeout_hours: 2,
            options: [
              { id: "basic", label: "Basic", keywords: ["cheap", "barato"] },
              { id: "pro", label: "Pro", keywords: ["premium"], matchMode: "CONTAINS_WORD" },
            ],
          },
        },
        { send_reply: { text: "option={{vars.reply_option}} text={{vars.reply_text}}" } },
      ],
    });
    await say(h, tester, "plan");
    return { seeded, tester, automation };
  }

  it("the conversation's next message resumes it: reply_text, and reply_option from a button reply's id", async () => {
    const { tester, automation } = await quiz();
    expect((await runsOf(h.app, automation.id))[0]).toMatchObject({ status: "WAITING", stepIndex: 1 });
    await say(h, tester, { type: "button_reply", reply: { id: "pro", title: "Pro" } });
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED", stepIndex: 3 });
    expect(run!.variables).toMatchObject({ reply_option: "pro", reply_text: "Pro" });
    expect(textsTo(h, tester)).toEqual(["Which plan?", "option=pro text=Pro"]);
  });

  it.each([
    ["a keyword (EXACT by default), accents and case aside", "BARATO", "basic"],
    ["a keyword with its own matchMode", "the premium one please", "pro"],
    ["the label", "basic", "basic"],
    ["nothing matches: reply_option is empty", "not sure", ""],
  ])("typed text matches by %s", async (_name, text, option) => {
    const { tester, automation } = await quiz();
    await say(h, tester, text);
    expect(textsTo(h, tester)).toEqual(["Which plan?", `option=${option} text=${text}`]);
    expect((await runsOf(h.app, automation.id))[0]!.status).toBe("COMPLETED");
  });

  it("an answer after timeout_hours, before the timeout's job ran, is a new turn; the wait is TIMED_OUT", async () => {
    const { tester, automation } = await quiz();
    h.app.clock.advance(2 * 60 * MINUTE);
    await say(h, tester, "plan");
    const runs = await runsOf(h.app, automation.id);
    expect(runs.map((r) => r.status)).toEqual(["TIMED_OUT", "WAITING"]);
    expect(textsTo(h, tester)).toEqual(["Which plan?", "Which plan?"]);
  });

  it("no answer before timeout_hours: TIMED_OUT, and a later message no longer answers it", async () => {
    const { tester, automation } = await quiz();
    await passTime(2 * 60 * MINUTE, tester);
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "TIMED_OUT", stepIndex: 1 });
    expect(run!.endedAt).toBeInstanceOf(Date);
    await say(h, tester, "pro");
    expect(textsTo(h, tester)).toEqual(["Which plan?"]);
  });
});

describe("pause_replies", () => {
  it("turns handoff on with its reason and completes the run; then nothing runs", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "human",
      name: "Human",
      trigger: { type: "KEYWORD", keywords: ["human"] },
      steps: [{ send_reply: { text: "A person will answer soon." } }, { pause_replies: { reason: "asked for a human" } }, { send_reply: { text: "never" } }],
    });
    await insertAutomation(h.app, seeded.projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: [{ send_reply: { text: "auto" } }] });
    await say(h, tester, "I want a human");
    const conversationId = await conversationOf(h.app, seeded.key, tester);
    const [row] = await h.app.db.select().from(conversations).where(eq(conversations.id, conversationId));
    expect(row).toMatchObject({ handoffStatus: "HUMAN_ACTIVE", handoffReason: "asked for a human" });
    expect(row!.handoffAt).toBeInstanceOf(Date);
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED", stepIndex: 1 });
    await say(h, tester, "hello?");
    expect(textsTo(h, tester)).toEqual(["A person will answer soon."]);
  });
});

describe("send_flow", () => {
  it("sends the flow group's variant for the contact's preferred_language", async () => {
    const { seeded, tester } = await flowsProject(h);
    const variants: Record<string, { id: string; meta_flow_id: string }> = {};
    for (const locale of ["es", null] as const) {
      const flow = await createFlow(h, seeded.key, { config_key: "signup", locale });
      variants[locale ?? "default"] = (await publish(h, seeded.key, flow.id)) as { id: string; meta_flow_id: string };
    }
    const conversationId = await conversationOf(h.app, seeded.key, tester);
    const conversation = (await h.app.call("GET", `/conversations/${conversationId}`, { key: seeded.key })).body;
    const patched = await h.app.call("PATCH", `/contacts/${conversation.contact_id}`, { key: seeded.key, body: { preferred_language: "es-MX" } });
    expect(patched.status).toBe(200);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "signup",
      name: "Sign-up",
      trigger: { type: "KEYWORD", keywords: ["registro"] },
      steps: [{ send_flow: { flow: "signup", body_text: "Regístrate, {{contact.name}}", flow_cta: "Abrir" } }],
    });
    await say(h, tester, "registro");
    const [run] = await runsOf(h.app, automation.id);
    expect(run, JSON.stringify(run?.error)).toMatchObject({ status: "COMPLETED", stepIndex: 1 });
    const [sent] = sentTo(h, tester);
    expect((sent!.body as any).interactive).toMatchObject({
      type: "flow",
      body: { text: "Regístrate, Ana" },
      action: { parameters: { flow_id: variants.es!.meta_flow_id, flow_cta: "Abrir" } },
    });
    const dispatches = await h.app.call("GET", `/flows/${variants.es!.id}/dispatches`, { key: seeded.key });
    expect(dispatches.body.data).toHaveLength(1);
    expect(dispatches.body.data[0]).toMatchObject({ conversation_id: conversationId, status: "SENT" });
  });

  it("an unknown flow fails the step with not_found", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "nope",
      name: "Nope",
      trigger: { type: "KEYWORD", keywords: ["form"] },
      steps: [{ send_flow: { flow: "no-such-flow" } }],
    });
    await say(h, tester, "form");
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "FAILED", stepIndex: 0, error: { code: "not_found" } });
  });
});
