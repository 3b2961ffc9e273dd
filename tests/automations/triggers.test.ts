import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import { testerNumber } from "../messages/send-support";
import { conversationOf, flowsProject, insertAutomation, runsInProject, runsOf, say, setProjectRouting, textsTo } from "./support";

/**
 * Which inbound messages start which automation, end to end: the simulated customer writes through
 * the provider webhook, the jobs run, and the replies reach the simulator.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const reply = (text: string) => [{ send_reply: { text } }];

describe("keyword priority, WELCOME and ANY_MESSAGE", () => {
  it("the first matching KEYWORD automation in config order wins; WELCOME only on the first message; ANY_MESSAGE otherwise", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "welcome", name: "Welcome", trigger: { type: "WELCOME" }, steps: reply("Welcome {{contact.name}}!") });
      await insertAutomation(h.app, projectId, {
        key: "prices",
        name: "Prices",
        trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["price"] },
        steps: reply("Prices: see acme.com/prices"),
      });
      await insertAutomation(h.app, projectId, {
        key: "price-list",
        name: "Price list (second)",
        trigger: { type: "KEYWORD", match_mode: "CONTAINS", keywords: ["price"] },
        steps: reply("never: the first one matches"),
      });
      await insertAutomation(h.app, projectId, { key: "fallback", name: "Fallback", trigger: { type: "ANY_MESSAGE" }, steps: reply("Echo: {{message.text}}") });
    });
    // The join was the tester's first message: WELCOME.
    expect(textsTo(h, tester)).toEqual(["Welcome Ana!"]);

    await say(h, tester, "What's the PRICE?");
    await say(h, tester, "hello again");
    expect(textsTo(h, tester)).toEqual(["Welcome Ana!", "Prices: see acme.com/prices", "Echo: hello again"]);

    const runs = await runsInProject(h.app, seeded.projectId);
    expect(runs.map((r) => r.status)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
    expect(runs.every((r) => r.stepIndex === 1 && r.endedAt !== null)).toBe(true);
  });

  it("a contact's later message is not WELCOME even when nothing else matches: it is dropped silently", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "welcome", name: "Welcome", trigger: { type: "WELCOME" }, steps: reply("Hi!") });
    });
    await say(h, tester, "second message");
    expect(textsTo(h, tester)).toEqual(["Hi!"]);
    expect(await runsInProject(h.app, seeded.projectId)).toHaveLength(1);
    // FLOWS does not forward: no webhook delivery for the message.
    const received = (await h.eventsOf(seeded.projectId, "message.received")).map((e) => e);
    expect(received.every((e) => e.deliver === false && e.route === "flows")).toBe(true);
  });
});

describe("match modes on normalised text", () => {
  const cases: { mode: "EXACT" | "CONTAINS" | "CONTAINS_WORD"; keyword: string; text: string; fires: boolean }[] = [
    { mode: "EXACT", keyword: "Menú", text: "  MENU  ", fires: true },
    { mode: "EXACT", keyword: "menu", text: "menu please", fires: false },
    { mode: "CONTAINS", keyword: "café", text: "un CAFE con leche", fires: true },
    { mode: "CONTAINS", keyword: "hol", text: "Holanda", fires: true },
    { mode: "CONTAINS_WORD", keyword: "hola", text: "¡Hola!", fires: true },
    { mode: "CONTAINS_WORD", keyword: "hola", text: "Holanda", fires: false },
    { mode: "CONTAINS_WORD", keyword: "buenos   días", text: "Buenos dias, equipo", fires: true },
  ];
  it.each(cases)("$mode '$keyword' on '$text' → $fires", async ({ mode, keyword, text, fires }) => {
    const { tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, {
        key: "k",
        name: "K",
        trigger: { type: "KEYWORD", match_mode: mode, keywords: [keyword] },
        steps: reply("matched"),
      });
    });
    await say(h, tester, text);
    expect(textsTo(h, tester)).toEqual(fires ? ["matched"] : []);
  });

  it("a button reply matches by its title and by its id", async () => {
    const { tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, {
        key: "by-title",
        name: "T",
        trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: ["Talk to sales"] },
        steps: reply("title"),
      });
      await insertAutomation(h.app, projectId, {
        key: "by-id",
        name: "I",
        trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: ["opt_support"] },
        steps: reply("id"),
      });
    });
    await say(h, tester, { type: "button_reply", reply: { id: "opt_sales", title: "Talk to sales" } });
    await say(h, tester, { type: "list_reply", reply: { id: "opt_support", title: "Something else" } });
    expect(textsTo(h, tester)).toEqual(["title", "id"]);
  });
});

describe("one run per message; a new run replaces the conversation's active one", () => {
  it("a newer run cancels the older run that was waiting", async () => {
    const { seeded, tester } = await flowsProject(h);
    const slow = await insertAutomation(h.app, seeded.projectId, {
      key: "slow",
      name: "Slow",
      trigger: { type: "KEYWORD", keywords: ["slow"] },
      steps: [{ send_reply: { text: "wait for it" } }, { delay: { minutes: 10 } }, { send_reply: { text: "never sent" } }],
    });
    const fast = await insertAutomation(h.app, seeded.projectId, {
      key: "fast",
      name: "Fast",
      trigger: { type: "KEYWORD", keywords: ["fast"] },
      steps: reply("fast"),
    });
    await say(h, tester, "slow");
    expect((await runsOf(h.app, slow.id))[0]).toMatchObject({ status: "WAITING", stepIndex: 1 });
    await say(h, tester, "fast");
    const [cancelled] = await runsOf(h.app, slow.id);
    expect(cancelled).toMatchObject({ status: "CANCELLED", stepIndex: 1 });
    expect(cancelled!.endedAt).toBeInstanceOf(Date);
    expect((await runsOf(h.app, fast.id))[0]).toMatchObject({ status: "COMPLETED" });
    expect(textsTo(h, tester)).toEqual(["wait for it", "fast"]);
  });
});

describe("when nothing runs", () => {
  it("handoff on: nothing runs", async () => {
    const { seeded, tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("auto") });
    });
    const conversationId = await conversationOf(h.app, seeded.key, tester);
    const before = textsTo(h, tester).length;
    const on = await h.app.call("POST", `/conversations/${conversationId}/handoff`, { key: seeded.key, body: { enabled: true, reason: "agent" } });
    expect(on.status).toBe(200);
    await say(h, tester, "anyone?");
    expect(textsTo(h, tester)).toHaveLength(before);
    expect((await runsInProject(h.app, seeded.projectId)).length).toBe(1); // the join's run only
  });

  it.each(["EXTERNAL", "AGENT"] as const)("project routing %s: nothing runs", async (mode) => {
    const seeded = await h.app.seed();
    await insertAutomation(h.app, seeded.projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("auto") });
    await setProjectRouting(h.app, seeded.projectId, mode);
    const tester = testerNumber();
    await h.join(seeded.projectId, tester, "Ana");
    await say(h, tester, "hello");
    expect(textsTo(h, tester)).toEqual([]);
    expect(await runsInProject(h.app, seeded.projectId)).toEqual([]);
  });

  it("edits, revokes, reactions, system and unsupported messages are not turns", async () => {
    const { seeded, tester } = await flowsProject(h);
    await insertAutomation(h.app, seeded.projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("auto") });
    const original = await say(h, tester, "first");
    expect(textsTo(h, tester)).toEqual(["auto"]);
    await say(h, tester, { type: "edit", edit: { message_id: original.message_id, text: "first (edited)" } });
    await say(h, tester, { type: "reaction", reaction: { message_id: original.message_id, emoji: "👍" } });
    await say(h, tester, { type: "unsupported" });
    await say(h, tester, { type: "system", system: { type: "customer_changed_number", body: "changed" } });
    await say(h, tester, { type: "revoke", revoke: { message_id: original.message_id } });
    expect(textsTo(h, tester)).toEqual(["auto"]);
    expect(await runsInProject(h.app, seeded.projectId)).toHaveLength(1);
  });
});

describe("dedicated channels: the channel's own routing is authoritative", () => {
  it("channel FLOWS on an EXTERNAL project runs automations; channel NONE stores the message and runs nothing", async () => {
    const seeded = await h.app.seed();
    await insertAutomation(h.app, seeded.projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: reply("dedicated auto") });
    const phoneNumberId = `pn-auto-${Date.now()}`;
    const connect = await h.app.call("POST", "/channels", {
      key: seeded.key,
      body: {
        platform: "PLATFORM_A",
        display_name: "Own",
        phone_number: "+15557770000",
        credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-${phoneNumberId}`, access_token: "t" },
      },
    });
    expect(connect.status).toBe(200);
    const channelId = connect.body.id as string;
    const customer = testerNumber();
    const write = (text: string) => say(h, customer, { sender_id: phoneNumberId, type: "text", text }, channelId);

    expect((await h.app.call("PATCH", `/channels/${channelId}`, { key: seeded.key, body: { routing_mode: "FLOWS" } })).status).toBe(200);
    await write("hi there");
    expect(textsTo(h, customer)).toEqual(["dedicated auto"]);

    expect((await h.app.call("PATCH", `/channels/${channelId}`, { key: seeded.key, body: { routing_mode: "NONE" } })).status).toBe(200);
    await write("anyone?");
    expect(textsTo(h, customer)).toEqual(["dedicated auto"]);
    const runs = await runsInProject(h.app, seeded.projectId);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.channelId).toBe(channelId);
    const [conversation] = await h.app.db.select().from(conversations).where(eq(conversations.id, runs[0]!.conversationId));
    expect(conversation!.lastChannelId).toBe(channelId);
  });
});
