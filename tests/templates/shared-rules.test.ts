import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRequest, emptyDraft, newButton, type TemplateDraft } from "@/components/templates/model/draft";
import { fieldPaths, placeIssues } from "@/components/templates/model/issues";
import { TEMPLATE_NAME_RULE, templateNameProblem, validateTemplateRequest } from "@/lib/shared/templates/request";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * Issue 32 item 15: the template builder judges a draft before submitting it with the server's own
 * rules (lib/shared/templates/request.ts), so what POST /templates would refuse is shown on its field
 * first, in the same words. Each draft below goes both ways: through the builder's check, and as the
 * same request through the real router (route wrapper, wire schema, createTemplate); the issues must
 * be the same, path for path and word for word.
 */
let app: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app?.close());

const CHANNEL = "ch_01TESTCHANNEL0000000000000";

function draft(overrides: Partial<TemplateDraft> = {}): TemplateDraft {
  return {
    ...emptyDraft(CHANNEL),
    name: "order_update",
    body: { text: "Hi {{1}}, your order has shipped.", examples: { "1": "Ana" }, addSecurityRecommendation: true },
    ...overrides,
  };
}

async function bothWays(d: TemplateDraft) {
  const { request } = buildRequest(d);
  const builder = validateTemplateRequest(request);
  const server = await app.call("POST", "/templates", { key: seeded.key, body: request });
  return { builder, server };
}

const REFUSED: Array<[string, TemplateDraft]> = [
  ["a body variable without its example value", draft({ body: { text: "Hi {{1}}, your order has shipped.", examples: {}, addSecurityRecommendation: true } })],
  [
    "two body variables with one example value",
    draft({ body: { text: "Hi {{1}}, order {{2}} has shipped.", examples: { "1": "Ana" }, addSecurityRecommendation: true } }),
  ],
  ["a header with two variables", draft({ header: { format: "TEXT", text: "Order {{1}} for {{2}}", handle: "", examples: { "1": "A", "2": "B" } } })],
  ["an image header without its sample", draft({ header: { format: "IMAGE", text: "", handle: "", examples: {} } })],
  ["a footer with a variable", draft({ footer: { text: "Ref {{1}}", codeExpirationMinutes: "" } })],
  ["a URL button without https://", draft({ buttons: [{ ...newButton("URL", "u"), text: "Track", url: "example.com/track" }] })],
  [
    "a URL variable without a sample URL",
    draft({ buttons: [{ ...newButton("URL", "u"), text: "Track", url: "https://example.com/track/{{1}}", urlExample: "" }] }),
  ],
  ["a button label over 25 characters", draft({ buttons: [{ ...newButton("QUICK_REPLY", "q"), text: "x".repeat(26) }] })],
  ["a phone button without a number", draft({ buttons: [{ ...newButton("PHONE_NUMBER", "p"), text: "Call us", phoneNumber: "" }] })],
  ["numbers out of order", draft({ body: { text: "Hi {{2}}", examples: { "2": "Ana" }, addSecurityRecommendation: true } })],
  [
    "a named variable in a POSITIONAL template",
    draft({ body: { text: "Hi {{first_name}}", examples: { first_name: "Ana" }, addSecurityRecommendation: true } }),
  ],
  ["a name with capitals and spaces", draft({ name: "Order Update" })],
  ["no name", draft({ name: "" })],
  ["a one-letter language", draft({ language: "e" })],
];

describe("the builder's check and POST /templates", () => {
  it.each(REFUSED)("refuse %s with the same issues, path for path and word for word", async (_what, d) => {
    const { builder, server } = await bothWays(d);
    expect(server.status).toBe(400);
    expect(server.body.error).toBe("invalid_request");
    expect(Object.keys(builder.issues).length).toBeGreaterThan(0);
    expect(builder.issues).toEqual(server.body.issues);
    expect(builder.shape).toBeNull();
  });

  it("find nothing wrong in a well-formed draft: the server goes on to the channel (unknown here: 404)", async () => {
    const { builder, server } = await bothWays(
      draft({
        header: { format: "TEXT", text: "Order {{1}}", handle: "", examples: { "1": "A-1" } },
        footer: { text: "Reply STOP to opt out", codeExpirationMinutes: "" },
        buttons: [{ ...newButton("URL", "u"), text: "Track", url: "https://example.com/track/{{1}}", urlExample: "https://example.com/track/A-1" }],
      }),
    );
    expect(builder.issues).toEqual({});
    expect(builder.shape?.variables.body).toEqual(["1"]);
    expect(server.status).toBe(404);
    expect(server.body.error).toBe("not_found");
  });

  it("say what to do next for a missing example value, and the builder shows it on the example values", () => {
    const d = draft({ body: { text: "Hi {{1}}", examples: {}, addSecurityRecommendation: true } });
    const { request, at } = buildRequest(d);
    const placed = placeIssues(validateTemplateRequest(request).issues, fieldPaths(d, at));
    expect(placed.byField[`components.${at.BODY}.example`]).toEqual(['Give {{1}} a non-empty sample value (example.body_text: [["…"]]).']);
    expect(placed.rest).toEqual([]);
  });
});

describe("templateNameProblem", () => {
  it("is the wire schema's own rule, said as the name is typed", () => {
    expect(templateNameProblem("order_update_2")).toBeUndefined();
    expect(templateNameProblem("Order-Update")).toBe(TEMPLATE_NAME_RULE);
    expect(templateNameProblem("x".repeat(513))).toBe("At most 512 characters.");
  });
});
