import { describe, expect, it } from "vitest";
import { automationsEvaluate, isCustomerTurn } from "@/lib/domain/automations/hook";
import { keywordMatches, matchCandidates, matchOption, normalizeText, pickAutomation, triggerMatches } from "@/lib/domain/automations/match";
import { renderText } from "@/lib/domain/automations/render";
import type { ProjectRow } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { ConversationRow } from "@/lib/domain/conversations";

describe("normalizeText", () => {
  it("trims, lower-cases, removes diacritics and collapses spaces", () => {
    expect(normalizeText("  ¿Qué   PASÓ,\tAñO? ")).toBe("¿que paso, ano?");
    expect(normalizeText("Ça   va\n bien")).toBe("ca va bien");
  });
});

describe("keywordMatches", () => {
  it("EXACT: equal once normalised; punctuation counts", () => {
    expect(keywordMatches("Menú", "  menu ", "EXACT")).toBe(true);
    expect(keywordMatches("menu", "menu!", "EXACT")).toBe(false);
    expect(keywordMatches("menu", "the menu", "EXACT")).toBe(false);
  });

  it("CONTAINS: a substring of the normalised text, inside words too", () => {
    expect(keywordMatches("CAFÉ", "un cafe con leche", "CONTAINS")).toBe(true);
    expect(keywordMatches("hol", "Holanda", "CONTAINS")).toBe(true);
    expect(keywordMatches("te", "hola", "CONTAINS")).toBe(false);
  });

  it("CONTAINS_WORD: whole words, punctuation separates words, multi-word keywords as a phrase", () => {
    expect(keywordMatches("hola", "hola!", "CONTAINS_WORD")).toBe(true);
    expect(keywordMatches("hola", "¡HOLA, equipo!", "CONTAINS_WORD")).toBe(true);
    expect(keywordMatches("hola", "holanda", "CONTAINS_WORD")).toBe(false);
    expect(keywordMatches("how much", "So... how   MUCH is it?", "CONTAINS_WORD")).toBe(true);
    expect(keywordMatches("how much", "how is it, much?", "CONTAINS_WORD")).toBe(false);
    expect(keywordMatches("buenos días", "buenos dias", "CONTAINS_WORD")).toBe(true);
  });

  it("CONTAINS_WORD with a keyword that has no letters or digits compares it as a substring", () => {
    expect(keywordMatches("👍", "ok 👍👍", "CONTAINS_WORD")).toBe(true);
    expect(keywordMatches("👍", "ok", "CONTAINS_WORD")).toBe(false);
  });
});

describe("matchCandidates", () => {
  it("a text message offers its text; a button or list reply its title and its id", () => {
    expect(matchCandidates({ type: "text", text: "hi" })).toEqual(["hi"]);
    expect(matchCandidates({ type: "interactive", text: "Yes", interactive: { type: "button_reply", id: "yes_1", title: "Yes" } })).toEqual(["Yes", "yes_1"]);
    expect(matchCandidates({ type: "image", text: null })).toEqual([]);
  });
});

describe("pickAutomation", () => {
  const keyword = (id: string, keywords: string[]) => ({ id, trigger: { type: "KEYWORD" as const, match_mode: "CONTAINS_WORD" as const, keywords } });
  const list = [
    keyword("a", ["price"]),
    keyword("b", ["price", "cost"]),
    { id: "w", trigger: { type: "WELCOME" as const } },
    { id: "any", trigger: { type: "ANY_MESSAGE" as const } },
  ];

  it("the first KEYWORD match in order, then WELCOME on a first message, then ANY_MESSAGE", () => {
    expect(pickAutomation(list, ["the price?"], true)?.id).toBe("a");
    expect(pickAutomation(list, ["cost"], false)?.id).toBe("b");
    expect(pickAutomation(list, ["hello"], true)?.id).toBe("w");
    expect(pickAutomation(list, ["hello"], false)?.id).toBe("any");
    expect(pickAutomation(list.slice(0, 3), ["hello"], false)).toBeNull();
  });

  it("a KEYWORD trigger without match_mode matches whole words", () => {
    expect(triggerMatches({ type: "KEYWORD", keywords: ["hola"] }, ["hola!"])).toBe(true);
    expect(triggerMatches({ type: "KEYWORD", keywords: ["hola"] }, ["holanda"])).toBe(false);
  });
});

describe("matchOption (wait_reply)", () => {
  const options = [
    { id: "yes", label: "Sí, claro", keywords: ["ok", "vale"] },
    { id: "no", label: "No", keywords: ["nope"], matchMode: "CONTAINS_WORD" as const },
  ];
  it("keywords with the option's matchMode (default EXACT), its label, or its id", () => {
    expect(matchOption(options, ["VALE"])?.id).toBe("yes");
    expect(matchOption(options, ["vale, gracias"])).toBeNull();
    expect(matchOption(options, ["si claro"])).toBeNull(); // the label has a comma: EXACT keeps punctuation
    expect(matchOption(options, ["Sí, CLARO"])?.id).toBe("yes");
    expect(matchOption(options, ["well... nope!"])?.id).toBe("no");
    expect(matchOption(options, ["No"])?.id).toBe("no");
    expect(matchOption(options, ["Something", "yes"])?.id).toBe("yes");
  });
});

describe("renderText", () => {
  const scope = { contact: { name: "Ana", phone: "+15551234567" }, message: { text: "hola" }, vars: { plan: "pro", order: { id: 42 }, list: [1, 2] } };
  it("fills contact, message and vars placeholders; missing ones are empty; others stay", () => {
    expect(renderText("Hi {{contact.name}} ({{ contact.phone }}), you said {{message.text}}", scope)).toBe("Hi Ana (+15551234567), you said hola");
    expect(renderText("{{vars.plan}}/{{vars.order.id}}/{{vars.list}}/[{{vars.missing}}]/{{vars.order.id.x}}", scope)).toBe("pro/42/[1,2]/[]/");
    expect(renderText("{{unknown.thing}} {{contact.name}}", { ...scope, contact: { name: null, phone: null } })).toBe("{{unknown.thing}} ");
  });
});

describe("the ingest hook", () => {
  const project = (routingMode: ProjectRow["routingMode"]) => ({ routingMode }) as ProjectRow;
  const channel = (routingMode: ChannelRow["routingMode"], isSandbox = false) => ({ routingMode, isSandbox }) as ChannelRow;
  const conversation = (handoffStatus: ConversationRow["handoffStatus"] = "AI_ACTIVE") => ({ handoffStatus }) as ConversationRow;

  it("evaluates only under effective FLOWS routing, without handoff, for new customer turns", () => {
    expect(automationsEvaluate(project("EXTERNAL"), channel("FLOWS"), conversation(), "text")).toBe(true);
    expect(automationsEvaluate(project("FLOWS"), channel("EXTERNAL"), conversation(), "text")).toBe(false);
    expect(automationsEvaluate(project("FLOWS"), channel("NONE"), conversation(), "text")).toBe(false);
    expect(automationsEvaluate(project("FLOWS"), channel("EXTERNAL", true), conversation(), "interactive")).toBe(true);
    // A dedicated channel's own routing overrides an AGENT project; one that follows the project does not evaluate.
    expect(automationsEvaluate(project("AGENT"), channel("FLOWS"), conversation(), "text")).toBe(true);
    expect(automationsEvaluate(project("AGENT"), channel(null), conversation(), "text")).toBe(false);
    expect(automationsEvaluate(project("FLOWS"), channel(null), conversation(), "text")).toBe(true);
    expect(automationsEvaluate(project("FLOWS"), channel("FLOWS"), conversation("HUMAN_ACTIVE"), "text")).toBe(false);
    for (const type of ["reaction", "system", "unsupported", "edit", "revoke"]) expect(isCustomerTurn(type), type).toBe(false);
    for (const type of ["text", "image", "interactive", "location"]) expect(isCustomerTurn(type), type).toBe(true);
  });
});
