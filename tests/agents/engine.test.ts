import { describe, expect, it } from "vitest";
import type { Ctx } from "@/lib/domain/context";
import { decide, resultText, runAgent, type AgentSpec } from "@/lib/domain/agents/engine";
import { bestFaq, contentWords, minimumOverlap } from "@/lib/domain/agents/faq";

/**
 * The offline agent's decision (docs/spec/decisions.md "Business agents"), pure: handoff keywords,
 * then skills, then the FAQ, then the fallback, else silence.
 */
const FAQ = [
  { q: "What are your opening hours?", a: "Monday to Friday, 9 to 18." },
  { q: "How do I reset my password?", a: "Use 'Forgot password' on the sign-in page." },
  { q: "Do you ship to Canada?", a: "Yes, in 5 days." },
  { q: "How long does shipping to Canada take?", a: "About 5 working days." },
];

const agent = (settings: Record<string, unknown> = {}, skills: Record<string, unknown>[] = []): AgentSpec => ({
  settings: { knowledge: { faq: FAQ }, ...settings },
  skills,
});

const kindOf = (spec: AgentSpec, text: string) => decide(spec, text).decision;

describe("handoff keywords", () => {
  it("the defaults human, agent, person match as whole words, case and accents ignored", () => {
    for (const text of ["I want a HUMAN", "agent please", "¿Puedo hablar con una persón? person!"]) {
      expect(kindOf(agent(), text)).toMatchObject({ kind: "handoff" });
    }
    // Not inside another word.
    expect(kindOf(agent(), "humanity is great")).not.toMatchObject({ kind: "handoff" });
    expect(kindOf(agent(), "our agency")).not.toMatchObject({ kind: "handoff" });
  });

  it("settings.handoff.keywords replaces the defaults; an empty list means none; handoff.message is the reply", () => {
    const custom = agent({ handoff: { keywords: ["operador", "talk to someone"], message: "Connecting you." } });
    expect(kindOf(custom, "quiero un OPERADOR")).toEqual({ kind: "handoff", keyword: "operador", message: "Connecting you." });
    expect(kindOf(custom, "can I talk to someone?")).toMatchObject({ kind: "handoff", keyword: "talk to someone" });
    expect(kindOf(custom, "a human please")).not.toMatchObject({ kind: "handoff" });
    expect(kindOf(agent({ handoff: { keywords: [] } }), "human")).not.toMatchObject({ kind: "handoff" });
  });

  it("a handoff keyword wins over a skill trigger in the same message", () => {
    const spec = agent({}, [{ name: "orders", triggers: ["order"], response: "Orders!" }]);
    expect(kindOf(spec, "order status, or a person")).toMatchObject({ kind: "handoff", keyword: "person" });
  });
});

describe("skills", () => {
  const skills = [
    { triggers: ["order"], response: "a skill without a name is ignored" },
    { name: "track", triggers: ["track", "where is my order"], tool: "order_status" },
    { name: "orders", triggers: ["order"], response: "Orders ship in 2 days." },
  ];

  it("the first skill in order whose trigger matches as a whole word (a phrase as consecutive words)", () => {
    expect(kindOf(agent({}, skills), "Where is my order??")).toMatchObject({ kind: "skill", skill: { name: "track" }, trigger: "where is my order" });
    expect(kindOf(agent({}, skills), "ORDER 123")).toMatchObject({ kind: "skill", skill: { name: "orders" }, trigger: "order" });
    expect(kindOf(agent({}, skills), "preorders")).not.toMatchObject({ kind: "skill" });
  });

  it("a skill without a tool replies with its response; a missing tool is a tool call error and the response (else the fallback) replies", async () => {
    const noCtx = {} as Ctx; // no tool is called on these paths
    const run = (spec: AgentSpec, text: string) =>
      runAgent(noCtx, { agent: spec, tools: [], text, contact: { id: "c", name: null, phone: null }, conversationId: null, channelId: "ch", dryRun: true });
    const plain = await run(agent({}, [{ name: "orders", triggers: ["order"], response: "Orders ship in 2 days." }]), "order");
    expect(plain).toMatchObject({ reply: "Orders ship in 2 days.", skill: "orders", tool_calls: [], handoff: false });

    const missing = await run(agent({ fallback_message: "Sorry?" }, [{ name: "track", triggers: ["track"], tool: "nope" }]), "track it");
    expect(missing.reply).toBe("Sorry?");
    expect(missing.tool_calls).toEqual([
      {
        tool: "nope",
        arguments: { text: "track it", contact: { id: "c", name: null, phone: null } },
        result: null,
        error: { code: "tool_not_found", message: "The agent has no tool named 'nope'." },
      },
    ]);
    expect(missing.trace.map((t) => [t.step, t.matched])).toEqual([
      ["handoff", false],
      ["skill", true],
      ["tool", false],
    ]);
  });

  it("a tool's result becomes the reply: its text, a string as is, anything else as JSON, nothing as silence", () => {
    expect(resultText({ text: "Ships tomorrow", eta: 1 })).toBe("Ships tomorrow");
    expect(resultText("plain")).toBe("plain");
    expect(resultText({ eta: 1 })).toBe('{"eta":1}');
    expect(resultText(null)).toBeNull();
    expect(resultText("   ")).toBeNull();
  });
});

describe("FAQ best match", () => {
  it("the entry sharing the most content words wins; ties go to the earlier entry", () => {
    expect(bestFaq(FAQ, "what are the opening hours on monday?")?.entry.a).toBe("Monday to Friday, 9 to 18.");
    // "ship" + "canada" (2 of 2) beats "canada" alone (1 of 4 for the longer question, below its minimum anyway).
    expect(bestFaq(FAQ, "do you ship to canada")?.index).toBe(2);
    // "shipping", "canada", "long" (3 of 4) beats entry 2 ("canada" 1 of 2).
    expect(bestFaq(FAQ, "how long is shipping to canada")?.index).toBe(3);
    // A tie (1 word each, both at their minimum): the earlier entry.
    const tie = [
      { q: "Password help", a: "first" },
      { q: "Password reset", a: "second" },
    ];
    expect(bestFaq(tie, "password?")?.entry.a).toBe("first");
  });

  it("a greeting, or chat made of function words, matches no entry (minimum overlap: half the question's content words)", () => {
    for (const text of ["hi", "Hello! How are you?", "good morning", "ok thanks", "what is this"]) {
      expect(bestFaq(FAQ, text), text).toBeNull();
      expect(kindOf(agent(), text), text).toEqual({ kind: "silent" });
    }
    expect(contentWords("How long does shipping to Canada take?")).toEqual(["long", "shipping", "canada", "take"]);
    expect([1, 2, 3, 4, 5].map(minimumOverlap)).toEqual([1, 1, 2, 2, 3]);
    // One shared word of a four-word question is below the minimum.
    expect(bestFaq([FAQ[3]!], "canada")).toBeNull();
  });

  it("entries without a question or an answer are ignored", () => {
    expect(
      kindOf({ settings: { knowledge: { faq: [{ q: "opening hours" }, "opening hours", { q: "opening hours", a: "9-18" }] } }, skills: [] }, "opening hours"),
    ).toEqual({
      kind: "faq",
      answer: "9-18",
    });
  });
});

describe("fallback and silence", () => {
  it("nothing matched: settings.fallback_message, else silent", async () => {
    expect(kindOf(agent({ fallback_message: "Type 'human' for a person." }), "blah")).toEqual({ kind: "fallback", message: "Type 'human' for a person." });
    expect(kindOf(agent({ fallback_message: "  " }), "blah")).toEqual({ kind: "silent" });
    const silent = await runAgent({} as Ctx, {
      agent: agent(),
      tools: [],
      text: "blah",
      contact: { id: "c", name: null, phone: null },
      conversationId: null,
      channelId: "ch",
      dryRun: true,
    });
    expect(silent).toMatchObject({ reply: null, skill: null, tool_calls: [], handoff: false });
    expect(silent.trace.map((t) => t.step)).toEqual(["handoff", "skill", "faq", "fallback"]);
    expect(silent.trace.at(-1)).toEqual({ step: "fallback", matched: false, detail: "no fallback_message: silent" });
  });
});
