import { and, eq, sql } from "drizzle-orm";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessAgentConnectors, businessAgents, businessAgentTools, channels, flows } from "@/lib/db/schema";
import { unseal } from "@/lib/crypto/secrets";
import { newId } from "@/lib/ids";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { deployed } from "../functions/support";
import { actions, allUnchanged, apply, configDoc, flowEntry } from "./support";

/**
 * business_agents in config-as-code (docs/spec/decisions.md "Business agents", "Config-as-code"):
 * the agent, its config-owned connectors and their tools through POST /config/apply, in one
 * transaction, against real backings (a function really deployed to the sandbox).
 */
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const SANDBOX = "ch_sandbox";

/** A published flow of the project (the publish itself is the flows suites' business). */
async function publishedFlow(seeded: Seeded, key = "signup"): Promise<string> {
  expect((await apply(app, seeded.key, configDoc({ flows: [flowEntry(key)] }))).status).toBe(200);
  const [row] = await app.db
    .select()
    .from(flows)
    .where(and(eq(flows.projectId, seeded.projectId), eq(flows.configKey, key)));
  await app.db
    .update(flows)
    .set({ status: "PUBLISHED", metaStatus: "PUBLISHED", publishedVersion: 1, metaFlowId: `m-${row!.id}` })
    .where(eq(flows.id, row!.id));
  return row!.id;
}

function agentDoc(seeded: Seeded, flowKey: string, fnId: string, extra: { connectors?: unknown[]; skills?: unknown[]; settings?: unknown } = {}) {
  return configDoc({
    flows: [flowEntry(flowKey)],
    business_agents: [
      {
        channel_id: SANDBOX,
        settings: extra.settings ?? { persona: "Helpful", handoff: { keywords: ["human"] } },
        skills: extra.skills ?? [{ name: "orders", description: "Order status", triggers: ["order"], tool: "lookup_order" }],
        connectors: extra.connectors ?? [
          {
            key: "shop",
            name: "Shop API",
            type: "API",
            config: { base_url: "https://api.example.com", auth_type: "BEARER", secret: "s3cret-token-1234" },
            tools: [{ name: "lookup_order", backing_type: "API_ENDPOINT", config: { method: "GET", path: "/orders" } }],
          },
          {
            key: "forms",
            name: "Forms",
            type: "FLOWS",
            tools: [
              { name: "sign_up", description: "Sends the sign-up form", backing_type: "FLOW", backing_flow_id: flowKey },
              { name: "lookup", backing_type: "HOSTED_FUNCTION", backing_function_id: fnId },
            ],
          },
        ],
      },
    ],
  });
}

async function provisionJobs(agentId: string): Promise<number> {
  const result = (await app.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = 'agents.provision' and data->>'businessAgentId' = ${agentId}`,
  )) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
  return Number(rows[0]!.n);
}

async function agentState(projectId: string) {
  const agents = await app.db.select().from(businessAgents).where(eq(businessAgents.projectId, projectId));
  const connectors = await app.db.select().from(businessAgentConnectors).where(eq(businessAgentConnectors.projectId, projectId));
  const tools = await app.db.select().from(businessAgentTools).where(eq(businessAgentTools.projectId, projectId));
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  return { agents: agents.sort(byId), connectors: connectors.sort(byId), tools: tools.sort(byId) };
}

describe("POST /config/apply: business_agents", () => {
  let seeded: Seeded;
  let fn: { id: string };
  beforeAll(async () => {
    seeded = await app.seed({ projectName: "Agents" });
    await publishedFlow(seeded);
    fn = await deployed(app, seeded.key, "lookup", "export default async () => ({ text: 'ok' });");
  }, 60_000);

  it("creates the agent, its connectors and tools, enqueues provisioning, and a second apply is all unchanged", async () => {
    // Its own project: the other tests of this block share theirs, and this one needs it empty.
    const seeded = await app.seed({ projectName: "Fresh agents" });
    await publishedFlow(seeded);
    const fn = await deployed(app, seeded.key, "lookup", "export default async () => ({ text: 'ok' });");
    const res = await apply(app, seeded.key, agentDoc(seeded, "signup", fn.id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(actions(res.body.diff).filter((line: string) => line.startsWith("business"))).toEqual([
      "business_agent ch_sandbox create",
      "business_agent_connector ch_sandbox/shop create",
      "business_agent_tool ch_sandbox/shop/lookup_order create",
      "business_agent_connector ch_sandbox/forms create",
      "business_agent_tool ch_sandbox/forms/sign_up create",
      "business_agent_tool ch_sandbox/forms/lookup create",
    ]);
    const state = await agentState(seeded.projectId);
    expect(state.agents).toHaveLength(1);
    expect(state.agents[0]).toMatchObject({ status: "PROVISIONING", settings: { persona: "Helpful" } });
    expect(state.agents[0]!.skills).toEqual([{ name: "orders", description: "Order status", triggers: ["order"], tool: "lookup_order" }]);
    expect(await provisionJobs(state.agents[0]!.id)).toBeGreaterThan(0);
    const shop = state.connectors.find((c) => c.configKey === "shop")!;
    expect(shop.config).not.toHaveProperty("secret");
    expect(unseal(shop.sealedSecret!)).toBe("s3cret-token-1234");
    const [signupFlow] = await app.db
      .select()
      .from(flows)
      .where(and(eq(flows.projectId, seeded.projectId), eq(flows.configKey, "signup")));
    expect(state.tools.find((t) => t.name === "sign_up")).toMatchObject({ backingType: "FLOW", backingFlowId: signupFlow!.id });
    expect(state.tools.find((t) => t.name === "lookup")).toMatchObject({ backingType: "HOSTED_FUNCTION", backingFunctionId: fn.id });

    const again = await apply(app, seeded.key, agentDoc(seeded, "signup", fn.id));
    expect(again.status).toBe(200);
    expect(allUnchanged(again.body.diff)).toBe(true);
    expect(await agentState(seeded.projectId)).toEqual(state);
  });

  it("updates and deletes tools and connectors; a connector made through the API is left alone", async () => {
    expect((await apply(app, seeded.key, agentDoc(seeded, "signup", fn.id))).status).toBe(200);
    const agentId = (await agentState(seeded.projectId)).agents[0]!.id;
    const manual = await app.call("POST", `/business-agents/${agentId}/connectors`, { key: seeded.key, body: { name: "Manual", type: "CUSTOM" } });
    expect(manual.status).toBe(200);
    const changed = agentDoc(seeded, "signup", fn.id, {
      settings: { persona: "Terse" },
      skills: [],
      connectors: [
        {
          key: "shop",
          name: "Shop API v2",
          type: "API",
          config: { base_url: "https://api.example.com", auth_type: "BEARER" },
          tools: [
            { name: "lookup_order", backing_type: "API_ENDPOINT", config: { method: "POST", path: "/orders/find" } },
            { name: "ping", backing_type: "NOOP", config: { response: { text: "pong" } } },
          ],
        },
      ],
    });
    const res = await apply(app, seeded.key, changed);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.diff.filter((i: { type: string }) => i.type.startsWith("business"))).toEqual([
      { type: "business_agent", key: "ch_sandbox", action: "update", changes: ["settings", "skills"] },
      { type: "business_agent_connector", key: "ch_sandbox/shop", action: "update", changes: ["name"] },
      { type: "business_agent_tool", key: "ch_sandbox/shop/lookup_order", action: "update", changes: ["config"] },
      { type: "business_agent_tool", key: "ch_sandbox/shop/ping", action: "create" },
      { type: "business_agent_connector", key: "ch_sandbox/forms", action: "delete" },
      { type: "business_agent_tool", key: "ch_sandbox/forms/sign_up", action: "delete" },
      { type: "business_agent_tool", key: "ch_sandbox/forms/lookup", action: "delete" },
    ]);
    const state = await agentState(seeded.projectId);
    expect(state.agents[0]!.settings).toMatchObject({ persona: "Terse", handoff: { keywords: ["human"] } });
    expect(state.connectors.map((c) => c.configKey ?? c.name).sort()).toEqual(["Manual", "shop"]);
    expect(state.tools.map((t) => t.name).sort()).toEqual(["lookup_order", "ping"]);
    expect(state.tools.find((t) => t.name === "lookup_order")!.config).toEqual({ method: "POST", path: "/orders/find" });
    // The secret was left out: the stored one stays.
    expect(unseal(state.connectors.find((c) => c.configKey === "shop")!.sealedSecret!)).toBe("s3cret-token-1234");
    expect(allUnchanged((await apply(app, seeded.key, changed)).body.diff)).toBe(true);
  });

  it("an agent the document does not list is left alone, with a warning; a document without business_agents leaves agents alone silently", async () => {
    expect((await apply(app, seeded.key, agentDoc(seeded, "signup", fn.id))).status).toBe(200);
    const before = await agentState(seeded.projectId);
    const res = await apply(app, seeded.key, configDoc({ flows: [flowEntry("signup")], business_agents: [] }));
    expect(res.status).toBe(200);
    expect(res.body.issues).toContainEqual(
      expect.objectContaining({ path: "business_agents", severity: "warning", message: expect.stringContaining("left as it is") }),
    );
    expect(await agentState(seeded.projectId)).toEqual(before);
    const without = await apply(app, seeded.key, configDoc({ flows: [flowEntry("signup")] }));
    expect(without.body.issues.filter((i: { path: string }) => i.path.startsWith("business_agents"))).toEqual([]);
    expect(await agentState(seeded.projectId)).toEqual(before);
  });

  it("GET /config exports the agents without secrets, and the export re-applies to all unchanged", async () => {
    expect((await apply(app, seeded.key, agentDoc(seeded, "signup", fn.id))).status).toBe(200);
    const exported = await app.call("GET", "/config", { key: seeded.key });
    expect(exported.status).toBe(200);
    const [agent] = exported.body.business_agents;
    expect(agent.channel_id).toBe(SANDBOX);
    expect(agent.connectors.map((c: { key: string }) => c.key)).toEqual(["shop", "forms"]);
    expect(agent.connectors[0].config).toEqual({ base_url: "https://api.example.com", auth_type: "BEARER", auth_header: null });
    expect(JSON.stringify(exported.body)).not.toContain("s3cret");
    const schema = await app.call("GET", "/config/schema.json", { key: seeded.key });
    const validate = new Ajv2020({ strict: true, strictRequired: false, validateFormats: false }).compile(schema.body);
    expect(validate(exported.body), JSON.stringify(validate.errors)).toBe(true);
    const before = await agentState(seeded.projectId);
    const res = await apply(app, seeded.key, exported.body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(allUnchanged(res.body.diff)).toBe(true);
    expect(await agentState(seeded.projectId)).toEqual(before);
  });
});

describe("POST /config/apply: business_agents refused", () => {
  it("a tool backed by an undeployed function is an error at its path, and nothing is written (one transaction)", async () => {
    const seeded = await app.seed({ projectName: "Atomic agents" });
    await publishedFlow(seeded);
    const fn = await deployed(app, seeded.key, "lookup", "export default async () => 1;");
    const undeployed = await app.call("POST", "/functions", { key: seeded.key, body: { slug: "later", name: "Later", trigger_type: "KEYWORD" } });
    expect(undeployed.status).toBe(200);
    const doc = agentDoc(seeded, "signup", fn.id);
    const connectors = (doc as unknown as { business_agents: Array<{ connectors: Array<{ tools: unknown[] }> }> }).business_agents[0]!.connectors;
    connectors[1]!.tools.push({ name: "later", backing_type: "HOSTED_FUNCTION", backing_function_id: "later" });
    const res = await apply(app, seeded.key, doc);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("config_invalid");
    expect(res.body.issues).toEqual({ "business_agents.0.connectors.1.tools.2.backing_function_id": [expect.stringContaining("no deployed version")] });
    expect(await agentState(seeded.projectId)).toEqual({ agents: [], connectors: [], tools: [] });
    const validated = await app.call("POST", "/config/validate", { key: seeded.key, body: doc });
    expect(validated.body.valid).toBe(false);
  });

  it("a failure while writing after the agents (the provider refusing a deprecation) rolls the agents and their job back", async () => {
    const seeded = await app.seed({ projectName: "Rollback agents" });
    const flowId = await publishedFlow(seeded, "old");
    await app.db.update(flows).set({ metaFlowId: "999", publishChannelId: SANDBOX }).where(eq(flows.id, flowId));
    const doc = configDoc({ business_agents: [{ channel_id: SANDBOX, connectors: [{ key: "misc", name: "Misc", type: "CUSTOM", tools: [] }] }] });
    const res = await apply(app, seeded.key, doc);
    expect(res.status).toBe(502);
    expect(await agentState(seeded.projectId)).toEqual({ agents: [], connectors: [], tools: [] });
    const result = (await app.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'agents.provision' and data->>'projectId' = ${seeded.projectId}`,
    )) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it("an unpublished flow and a flow key only the document creates are errors at backing_flow_id", async () => {
    const seeded = await app.seed({ projectName: "Flow backings" });
    const fn = await deployed(app, seeded.key, "lookup", "export default async () => 1;");
    const res = await app.call("POST", "/config/validate", { key: seeded.key, body: agentDoc(seeded, "draft-only", fn.id) });
    expect(res.body.valid).toBe(false);
    expect(res.body.issues).toContainEqual(
      expect.objectContaining({
        path: "business_agents.0.connectors.1.tools.0.backing_flow_id",
        severity: "error",
        message: expect.stringContaining("apply never publishes"),
      }),
    );
  });

  it("another project's channel and another organization's channel are refused at channel_id", async () => {
    const seeded = await app.seed({ projectName: "Mine" });
    const sibling = await app.addProject(seeded);
    const theirs = newId("channel");
    await app.db.insert(channels).values({
      id: theirs,
      organizationId: seeded.orgId,
      projectId: sibling.projectId,
      platform: "PLATFORM_A",
      status: "connected",
      numberMode: "dedicated",
      routingMode: "EXTERNAL",
    });
    const other = await app.seed({ orgName: "Elsewhere" });
    const foreign = newId("channel");
    await app.db.insert(channels).values({
      id: foreign,
      organizationId: other.orgId,
      projectId: other.projectId,
      platform: "PLATFORM_A",
      status: "connected",
      numberMode: "dedicated",
      routingMode: "EXTERNAL",
    });
    const doc = configDoc({ business_agents: [{ channel_id: theirs }, { channel_id: foreign }] });
    const res = await apply(app, seeded.key, doc);
    expect(res.status).toBe(422);
    expect(res.body.issues["business_agents.0.channel_id"]).toEqual([expect.stringContaining("CHANNEL_OF_ANOTHER_PROJECT")]);
    expect(res.body.issues["business_agents.1.channel_id"]).toEqual([expect.stringContaining("No channel")]);
    expect(await app.db.select().from(businessAgents).where(eq(businessAgents.projectId, seeded.projectId))).toEqual([]);
  });
});
