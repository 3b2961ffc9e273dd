import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { functionInvocations } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import { deployed } from "../functions/support";
import { flowsProject, insertAutomation, runsOf, say, textsTo } from "./support";

/** run_function steps with real deployed functions (the QuickJS sandbox), end to end through the simulator. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const GREET = `export default async function (event) {
  return { text: "Hi " + event.contact.name + ", you said " + event.text, shout: event.text.toUpperCase(), trigger: event.trigger };
}`;
const PROFILE = `export default async (event) => ({ tier: "gold", points: event.text.length, seen: Object.keys(event.variables).sort() });`;

describe("run_function", () => {
  it("result_mode reply: sends the result's `text`, or the reply_field; the run's event is logged as event_type automation", async () => {
    const { seeded, tester } = await flowsProject(h);
    const fn = await deployed(h.app, seeded.key, "greet", GREET);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "greet",
      name: "Greet",
      trigger: { type: "KEYWORD", keywords: ["hi"] },
      steps: [{ run_function: { function: "greet", result_mode: "reply" } }, { run_function: { function: fn.id, result_mode: "reply", reply_field: "shout" } }],
    });
    await say(h, tester, "hi there");
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED", stepIndex: 2 });
    const invocations = await h.app.db
      .select()
      .from(functionInvocations)
      .where(and(eq(functionInvocations.functionId, fn.id), eq(functionInvocations.eventType, "automation")));
    expect(invocations).toHaveLength(2);
    expect(invocations[0]!.input).toMatchObject({
      type: "message",
      trigger: "KEYWORD",
      text: "hi there",
      contact: { name: "Ana", phone: `+${tester}` },
      conversation_id: run!.conversationId,
      channel_id: "ch_sandbox",
      automation_id: automation.id,
      run_id: run!.id,
      variables: {},
    });
    // Two replies from one turn: the first reaches the customer; the second waits in the queue for its
    // pair slot (6 s), as internal sends do, so it is read from the conversation.
    expect(textsTo(h, tester)[0]).toBe("Hi Ana, you said hi there");
    const outbound = await h.app.call("GET", `/conversations/${run!.conversationId}/messages`, { key: seeded.key });
    const texts = (outbound.body.data as { direction: string; content: string }[]).filter((m) => m.direction === "outbound").map((m) => m.content);
    expect(texts.sort()).toEqual(["HI THERE", "Hi Ana, you said hi there"]);
  });

  it("result_mode variables: stored under variable_name, or an object's keys merged; the next steps read them", async () => {
    const { seeded, tester } = await flowsProject(h);
    await deployed(h.app, seeded.key, "profile", PROFILE);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "profile",
      name: "Profile",
      trigger: { type: "KEYWORD", keywords: ["me"] },
      steps: [
        { run_function: { function: "profile", result_mode: "variables", variable_name: "profile" } },
        { run_function: { function: "profile", result_mode: "variables" } },
        { run_function: { function: "profile" } },
        { send_reply: { text: "{{vars.profile.tier}} {{vars.points}} {{vars.seen}}" } },
      ],
    });
    await say(h, tester, "about me");
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "COMPLETED", stepIndex: 4 });
    expect(run!.variables).toEqual({
      profile: { tier: "gold", points: 8, seen: [] },
      tier: "gold",
      points: 8,
      seen: ["profile"],
    });
    expect(textsTo(h, tester)).toEqual(['gold 8 ["profile"]']);
  });

  it("a function that throws fails the run with function_error; later steps do not run", async () => {
    const { seeded, tester } = await flowsProject(h);
    await deployed(h.app, seeded.key, "boom", "export default async () => { throw new Error('price list unavailable'); }");
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "boom",
      name: "Boom",
      trigger: { type: "KEYWORD", keywords: ["price"] },
      steps: [{ run_function: { function: "boom", result_mode: "reply" } }, { send_reply: { text: "never" } }],
    });
    await say(h, tester, "price");
    const [run] = await runsOf(h.app, automation.id);
    expect(run).toMatchObject({ status: "FAILED", stepIndex: 0 });
    expect(run!.error!.code).toBe("function_error");
    expect(run!.error!.message).toContain("uncaught_exception");
    expect(run!.error!.message).toContain("price list unavailable");
    expect(textsTo(h, tester)).toEqual([]);
  });

  it("reply mode with no usable text, an inactive function, a missing function: each fails the run with its code", async () => {
    const { seeded, tester } = await flowsProject(h);
    await deployed(h.app, seeded.key, "empty", "export default async () => ({ other: 1 });");
    const off = await deployed(h.app, seeded.key, "off", "export default async () => 'x';");
    await h.app.call("PATCH", `/functions/${off.id}`, { key: seeded.key, body: { is_active: false } });
    const cases = [
      ["empty", "function_result_invalid"],
      ["off", "function_inactive"],
      ["missing", "not_found"],
    ] as const;
    for (const [slug, code] of cases) {
      const automation = await insertAutomation(h.app, seeded.projectId, {
        key: `k-${slug}`,
        name: slug,
        trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: [slug] },
        steps: [{ run_function: { function: slug, result_mode: "reply" } }],
      });
      await say(h, tester, slug);
      expect((await runsOf(h.app, automation.id))[0], slug).toMatchObject({ status: "FAILED", error: { code } });
    }
  });
});

describe("DELETE /functions/{id} while an automation uses it", () => {
  it("409 function_in_use with the references, by slug or by id; deletable once no automation names it", async () => {
    const { seeded } = await flowsProject(h);
    const bySlug = await deployed(h.app, seeded.key, "by-slug", "export default async () => 'ok';");
    const byId = await deployed(h.app, seeded.key, "by-id", "export default async () => 'ok';");
    const free = await deployed(h.app, seeded.key, "free", "export default async () => 'ok';");
    const a = await insertAutomation(h.app, seeded.projectId, {
      key: "uses-slug",
      name: "Uses slug",
      trigger: { type: "ANY_MESSAGE" },
      steps: [{ send_reply: { text: "x" } }, { run_function: { function: "by-slug" } }],
    });
    await insertAutomation(h.app, seeded.projectId, {
      key: "uses-id",
      name: "Uses id",
      trigger: { type: "WELCOME" },
      steps: [{ run_function: { function: byId.id } }],
    });

    const refused = await h.app.call("DELETE", `/functions/${bySlug.id}`, { key: seeded.key });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "function_in_use", references: [{ type: "automation", id: a.id, key: "uses-slug", name: "Uses slug" }] });
    expect(refused.body.message).toContain("uses-slug");
    expect((await h.app.call("DELETE", "/functions/by-id", { key: seeded.key })).body.error).toBe("function_in_use");
    expect((await h.app.call("GET", `/functions/${bySlug.id}`, { key: seeded.key })).status).toBe(200);

    expect((await h.app.call("DELETE", `/functions/${free.id}`, { key: seeded.key })).status).toBe(200);
    // Another project's automation naming the same slug does not hold this project's function.
    const other = await h.app.seed();
    const otherFn = await deployed(h.app, other.key, "by-slug", "export default async () => 'ok';");
    expect((await h.app.call("DELETE", `/functions/${otherFn.id}`, { key: other.key })).status).toBe(200);
  });
});
