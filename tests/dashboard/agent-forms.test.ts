import { describe, expect, it } from "vitest";
import { draftFromSettings, settingsBody, DEFAULT_HANDOFF_KEYWORDS as PAGE_DEFAULTS } from "@/components/agent/model/settings-draft";
import { draftFromSkill, skillBody, skillIssues } from "@/components/agent/model/skill-draft";
import { connectorBody, draftFromTool, emptyTool, toolBody } from "@/components/agent/model/tool-draft";
import { SettingsRequest, Skill } from "@/lib/api/schemas/business-agents";
import { ConnectorCreateRequest, ToolCreateRequest } from "@/lib/api/schemas/business-agent-connectors";
import { DEFAULT_HANDOFF_KEYWORDS, handoffSettings } from "@/lib/domain/agents/engine";
import { faqEntries } from "@/lib/domain/agents/faq";

/**
 * The Agent page's forms: what they send is what the API accepts (its own zod schemas) and what the
 * engine reads (handoffSettings, faqEntries), and other keys of the stored settings are kept.
 */
describe("settings form", () => {
  it("shows the engine's default handoff keywords when none are set", () => {
    expect(PAGE_DEFAULTS).toEqual([...DEFAULT_HANDOFF_KEYWORDS]);
    expect(draftFromSettings(null).handoffKeywords).toEqual([...DEFAULT_HANDOFF_KEYWORDS]);
  });

  it("sends what the engine reads, keeping other keys of handoff and knowledge", () => {
    const stored = { handoff: { keywords: ["human"], extra: 1 }, knowledge: { faq: [], docs: ["x"] }, custom: true };
    const draft = { ...draftFromSettings(stored), handoffKeywords: ["human", "operator"], handoffMessage: "A person will answer.", fallbackMessage: "Sorry?" };
    draft.faq = [
      { q: "What are your opening hours?", a: "9am to 5pm." },
      { q: " ", a: "" },
    ];
    const body = settingsBody(draft, stored);
    expect(SettingsRequest.safeParse(body).success).toBe(true);
    expect(handoffSettings(body)).toEqual({ keywords: ["human", "operator"], message: "A person will answer." });
    expect(body.handoff).toMatchObject({ extra: 1 });
    expect(body.knowledge).toMatchObject({ docs: ["x"] });
    expect(faqEntries(body)).toHaveLength(1);
    expect(body.fallback_message).toBe("Sorry?");
    expect(draftFromSettings({ ...stored, ...body })).toEqual({ ...draft, faq: [draft.faq[0]] });
  });

  it("drops a cleared handoff message", () => {
    const body = settingsBody({ ...draftFromSettings({ handoff: { message: "old" } }), handoffMessage: "" }, { handoff: { message: "old" } });
    expect(body.handoff).not.toHaveProperty("message");
  });
});

describe("skills editor", () => {
  it("leaves out an unset tool and response, and the API accepts the result", () => {
    const body = skillBody({ name: "order", description: "Order status", triggers: ["order"], tool: "order_status", response: "" });
    expect(body).toEqual({ name: "order", description: "Order status", triggers: ["order"], tool: "order_status" });
    expect(Skill.safeParse(body).success).toBe(true);
    expect(draftFromSkill(body)).toMatchObject({ tool: "order_status", response: "" });
  });

  it("puts the API's issues on the skill's fields", () => {
    const issues = {
      "skills.1.tool": ["No tool named 'x'."],
      "skills.1": ["A skill needs a tool, a response or both."],
      "skills.0.name": ["bad"],
      "skills.1.triggers.0": ["empty"],
    };
    expect(skillIssues(issues, 1)).toEqual({ tool: "No tool named 'x'.", "": "A skill needs a tool, a response or both.", triggers: "empty" });
    expect(skillIssues(undefined, 0)).toEqual({});
  });
});

describe("tool and connector forms", () => {
  it("builds each backing's body as the API expects", () => {
    const fn = toolBody({ ...emptyTool("HOSTED_FUNCTION"), name: "order_status", functionId: "fn_1" });
    expect(fn.body).toMatchObject({ backing_type: "HOSTED_FUNCTION", backing_function_id: "fn_1", backing_flow_id: null });
    const api = toolBody({ ...emptyTool("API_ENDPOINT"), name: "lookup", method: "GET", path: "/orders", inputSchema: '{"type":"object"}' });
    expect(api.body).toMatchObject({ config: { method: "GET", path: "/orders" }, input_schema: { type: "object" } });
    const noop = toolBody({ ...emptyTool("NOOP"), name: "hello", noopResponse: '{"text":"hi"}' });
    expect(noop.body?.config).toEqual({ response: { text: "hi" } });
    for (const built of [fn, api, noop]) expect(ToolCreateRequest.safeParse(built.body).success).toBe(true);
  });

  it("reports a bad name, a missing backing and broken JSON on their fields", () => {
    expect(toolBody({ ...emptyTool("HOSTED_FUNCTION"), name: "Bad Name" }).errors).toEqual({
      name: expect.any(String),
      backing_function_id: expect.any(String),
    });
    expect(toolBody({ ...emptyTool("NOOP"), name: "x", noopResponse: "{", inputSchema: "[1]" }).errors).toEqual({
      "config.response": expect.stringMatching(/Not valid JSON/),
      input_schema: "Must be a JSON object.",
    });
  });

  it("reads a stored tool back into the form", () => {
    const tool = toolBody({ ...emptyTool("API_ENDPOINT"), name: "lookup", path: "/x" }).body!;
    const stored = { ...tool, id: "t", connector_id: "c", business_agent_id: "b", meta_tool_id: null, description: null, created_at: "", updated_at: "" };
    expect(toolBody(draftFromTool(stored as never)).body).toEqual(tool);
  });

  it("sends an API connector's config, the masked secret as is, and none for other types", () => {
    const api = connectorBody({ name: "Shop", type: "API", baseUrl: "https://shop.example", authType: "BEARER", authHeader: "", secret: "••••abcd" });
    expect(api.body).toEqual({ name: "Shop", type: "API", config: { base_url: "https://shop.example", auth_type: "BEARER", secret: "••••abcd" } });
    expect(ConnectorCreateRequest.safeParse(api.body).success).toBe(true);
    expect(connectorBody({ name: "Fns", type: "FUNCTIONS", baseUrl: "", authType: "NONE", authHeader: "", secret: "" }).body).toEqual({
      name: "Fns",
      type: "FUNCTIONS",
      config: null,
    });
    expect(connectorBody({ name: "", type: "API", baseUrl: "ftp://x", authType: "NONE", authHeader: "", secret: "" }).errors).toEqual({
      name: expect.any(String),
      "config.base_url": expect.any(String),
    });
  });
});
