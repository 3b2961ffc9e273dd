import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businessAgentTools } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createFlow, publish } from "../flows/support";
import { deployed } from "../functions/support";
import { addConnector, addTool, seedAgent } from "./connector-support";

/**
 * Tools and what backs them, against real backings: a flow published through the provider
 * simulator, functions really deployed to the sandbox.
 */
let h: Harness;
let seeded: Seeded;
let other: { projectId: string; key: string };
let agentId: string;
let apiConnector: string;
let flowsConnector: string;
let publishedFlow: string;
let draftFlow: string;
let theirFlow: string;
let fn: { id: string };
let theirFn: { id: string };
let theirConnector: string;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  other = await h.app.addProject(seeded);
  agentId = await seedAgent(h.app, seeded.projectId);
  apiConnector = (await addConnector(h.app, seeded.key, agentId, { name: "Shop", type: "API", config: { base_url: "https://api.example.com" } })).id;
  flowsConnector = (await addConnector(h.app, seeded.key, agentId, { name: "Forms", type: "FLOWS" })).id;
  publishedFlow = (await publish(h, seeded.key, (await createFlow(h, seeded.key)).id)).id;
  draftFlow = (await createFlow(h, seeded.key, { name: "Draft" })).id;
  theirFlow = (await publish(h, other.key, (await createFlow(h, other.key)).id)).id;
  fn = await deployed(h.app, seeded.key, "lookup", "export default async (event) => ({ text: 'ok' });");
  theirFn = await deployed(h.app, other.key, "theirs", "export default async () => 1;");
  theirConnector = (await addConnector(h.app, other.key, await seedAgent(h.app, other.projectId), { name: "Theirs", type: "CUSTOM" })).id;
}, 60_000);
afterAll(() => h?.close());

const create = (connectorId: string, body: Record<string, unknown>, key = seeded.key) =>
  h.app.call("POST", `/business-agent-connectors/${connectorId}/tools`, { key, body });

async function expectBackingRefused(body: Record<string, unknown>, connectorId = flowsConnector) {
  const res = await create(connectorId, body);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error).toBe("invalid_tool_backing");
  return res.body as { message: string };
}

describe("POST /business-agent-connectors/{id}/tools: backings", () => {
  it("FLOW: a published flow of the project", async () => {
    const res = await create(flowsConnector, { name: "sign_up", backing_type: "FLOW", backing_flow_id: publishedFlow, description: "Sends the sign-up form." });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      object: "business_agent_connector_tool",
      connector_id: flowsConnector,
      business_agent_id: agentId,
      meta_tool_id: null,
      name: "sign_up",
      description: "Sends the sign-up form.",
      backing_type: "FLOW",
      backing_flow_id: publishedFlow,
      backing_function_id: null,
      input_schema: null,
    });
    expect(res.body.id).toMatch(/^batl_/);
  });

  it("FLOW: a draft flow, another project's flow, an unknown id or none at all is invalid_tool_backing", async () => {
    expect((await expectBackingRefused({ name: "draft_flow", backing_type: "FLOW", backing_flow_id: draftFlow })).message).toContain("DRAFT");
    await expectBackingRefused({ name: "their_flow", backing_type: "FLOW", backing_flow_id: theirFlow });
    await expectBackingRefused({ name: "no_such_flow", backing_type: "FLOW", backing_flow_id: "flow_01jxq4zzzzzzzzzzzzzzzzzzzz" });
    await expectBackingRefused({ name: "no_flow", backing_type: "FLOW" });
  });

  it("HOSTED_FUNCTION: a deployed active function (a slug is stored as the id)", async () => {
    const res = await create(flowsConnector, { name: "lookup_by_slug", backing_type: "HOSTED_FUNCTION", backing_function_id: "lookup" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ backing_type: "HOSTED_FUNCTION", backing_function_id: fn.id, backing_flow_id: null });
    // While the tool names it, the function cannot be deleted; once the tool is gone, it can be.
    const refused = await h.app.call("DELETE", `/functions/${fn.id}`, { key: seeded.key });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "function_in_use", references: [{ type: "business_agent_tool", id: res.body.id, name: "lookup_by_slug" }] });
    expect((await h.app.call("DELETE", `/business-agent-tools/${res.body.id}`, { key: seeded.key })).status).toBe(200);
  });

  it("HOSTED_FUNCTION: undeployed, inactive, another project's or missing is invalid_tool_backing", async () => {
    const created = await h.app.call("POST", "/functions", { key: seeded.key, body: { slug: "never-deployed", name: "N", trigger_type: "KEYWORD" } });
    const refused = await expectBackingRefused({ name: "undeployed", backing_type: "HOSTED_FUNCTION", backing_function_id: created.body.id });
    expect(refused.message).toContain("no deployed version");
    const off = await deployed(h.app, seeded.key, "switched-off", "export default async () => 1;");
    await h.app.call("PATCH", `/functions/${off.id}`, { key: seeded.key, body: { is_active: false } });
    expect((await expectBackingRefused({ name: "inactive", backing_type: "HOSTED_FUNCTION", backing_function_id: off.id })).message).toContain("inactive");
    await expectBackingRefused({ name: "their_fn", backing_type: "HOSTED_FUNCTION", backing_function_id: theirFn.id });
    await expectBackingRefused({ name: "no_fn", backing_type: "HOSTED_FUNCTION" });
  });

  it("API_ENDPOINT: {method, path} on an API connector only", async () => {
    const res = await create(apiConnector, { name: "order_status", backing_type: "API_ENDPOINT", config: { method: "GET", path: "/orders/status" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.config).toEqual({ method: "GET", path: "/orders/status" });
    await expectBackingRefused({ name: "on_flows", backing_type: "API_ENDPOINT", config: { method: "GET", path: "/x" } }, flowsConnector);
    await expectBackingRefused({ name: "bad_method", backing_type: "API_ENDPOINT", config: { method: "PUT", path: "/x" } }, apiConnector);
    await expectBackingRefused({ name: "bad_path", backing_type: "API_ENDPOINT", config: { method: "GET", path: "orders" } }, apiConnector);
  });

  it("NOOP: config {response} is required", async () => {
    const res = await create(flowsConnector, { name: "hours", backing_type: "NOOP", config: { response: { text: "9 to 5" } } });
    expect(res.status).toBe(200);
    await expectBackingRefused({ name: "noop_empty", backing_type: "NOOP", config: {} });
    await expectBackingRefused({ name: "noop_none", backing_type: "NOOP" });
  });

  it("a backing id of another backing type is refused", async () => {
    await expectBackingRefused({ name: "stray", backing_type: "NOOP", backing_flow_id: publishedFlow, config: { response: 1 } });
  });
});

describe("POST /business-agent-connectors/{id}/tools: name and input_schema", () => {
  it("refuses a name that does not match ^[a-z][a-z0-9_]{0,63}$", async () => {
    for (const name of ["Order", "1st", "with-dash", `a${"b".repeat(64)}`]) {
      const res = await create(flowsConnector, { name, backing_type: "NOOP", config: { response: 1 } });
      expect(res.status, name).toBe(400);
      expect(res.body.issues).toHaveProperty("name");
    }
  });

  it("a name is unique per agent, across its connectors (409 tool_conflict), not across agents", async () => {
    await addTool(h.app, seeded.key, flowsConnector, { name: "greet", backing_type: "NOOP", config: { response: "hi" } });
    const dup = await create(apiConnector, { name: "greet", backing_type: "NOOP", config: { response: "hello" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: "tool_conflict", issues: { name: ["Already used by a tool of this agent."] } });
    const res = await create(theirConnector, { name: "greet", backing_type: "NOOP", config: { response: "hey" } }, other.key);
    expect(res.status).toBe(200);
  });

  it("checks input_schema as JSON Schema 2020-12 of an object", async () => {
    const bad = await create(flowsConnector, {
      name: "bad_schema",
      backing_type: "NOOP",
      config: { response: 1 },
      input_schema: { type: "object", required: "x" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toHaveProperty("input_schema");
    const notObject = await create(flowsConnector, { name: "string_schema", backing_type: "NOOP", config: { response: 1 }, input_schema: { type: "string" } });
    expect(notObject.status).toBe(400);
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const ok = await create(flowsConnector, { name: "good_schema", backing_type: "NOOP", config: { response: 1 }, input_schema: schema });
    expect(ok.body.input_schema).toEqual(schema);
  });

  it("answers 404 for another project's connector", async () => {
    const res = await create(theirConnector, { name: "mine", backing_type: "NOOP", config: { response: 1 } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`No business agent connector with id '${theirConnector}'.`);
  });
});

describe("PATCH /business-agent-tools/{id}", () => {
  it("changes the backing type: the old backing id is dropped and the new backing checked", async () => {
    const tool = await addTool(h.app, seeded.key, flowsConnector, { name: "switch_me", backing_type: "FLOW", backing_flow_id: publishedFlow });
    const refused = await h.app.call("PATCH", `/business-agent-tools/${tool.id}`, { key: seeded.key, body: { backing_type: "NOOP" } });
    expect(refused.status).toBe(422);
    const res = await h.app.call("PATCH", `/business-agent-tools/${tool.id}`, {
      key: seeded.key,
      body: { backing_type: "NOOP", config: { response: "done" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ backing_type: "NOOP", backing_flow_id: null, config: { response: "done" }, name: "switch_me" });
    const again = await h.app.call("PATCH", `/business-agent-tools/${tool.id}`, {
      key: seeded.key,
      body: { backing_type: "FLOW", backing_flow_id: draftFlow },
    });
    expect(again.status).toBe(422);
  });

  it("renaming onto another tool's name is 409; description and input_schema may be cleared with null", async () => {
    await addTool(h.app, seeded.key, flowsConnector, { name: "taken_name", backing_type: "NOOP", config: { response: 1 } });
    const tool = await addTool(h.app, seeded.key, flowsConnector, {
      name: "rename_me",
      backing_type: "NOOP",
      description: "d",
      config: { response: 1 },
      input_schema: { type: "object" },
    });
    const conflict = await h.app.call("PATCH", `/business-agent-tools/${tool.id}`, { key: seeded.key, body: { name: "taken_name" } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe("tool_conflict");
    const cleared = await h.app.call("PATCH", `/business-agent-tools/${tool.id}`, {
      key: seeded.key,
      body: { description: null, input_schema: null, name: "renamed" },
    });
    expect(cleared.body).toMatchObject({ name: "renamed", description: null, input_schema: null });
  });

  it("answers 404 for another project's tool", async () => {
    const theirs = await addTool(h.app, other.key, theirConnector, { name: "theirs", backing_type: "NOOP", config: { response: 1 } });
    const res = await h.app.call("PATCH", `/business-agent-tools/${theirs.id}`, { key: seeded.key, body: { name: "mine" } });
    expect(res.status).toBe(404);
    const del = await h.app.call("DELETE", `/business-agent-tools/${theirs.id}`, { key: seeded.key });
    expect(del.status).toBe(404);
    const [row] = await h.app.db.select().from(businessAgentTools).where(eq(businessAgentTools.id, theirs.id));
    expect(row!.name).toBe("theirs");
  });
});

describe("DELETE /business-agent-tools/{id}", () => {
  it("deletes the tool; the name is free again", async () => {
    const tool = await addTool(h.app, seeded.key, flowsConnector, { name: "short_lived", backing_type: "NOOP", config: { response: 1 } });
    const res = await h.app.call("DELETE", `/business-agent-tools/${tool.id}`, { key: seeded.key });
    expect(res.body).toEqual({ object: "business_agent_connector_tool", id: tool.id, deleted: true });
    await addTool(h.app, seeded.key, flowsConnector, { name: "short_lived", backing_type: "NOOP", config: { response: 2 } });
  });
});

describe("scopes", () => {
  it("tool writes need business_agents:write", async () => {
    const reader = await h.app.addKey(seeded, ["business_agents:read"]);
    const res = await create(flowsConnector, { name: "nope", backing_type: "NOOP", config: { response: 1 } }, reader);
    expect(res.status).toBe(403);
    expect(res.body.required_scope).toBe("business_agents:write");
  });
});
