import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businessAgentConnectors, businessAgentTools } from "@/lib/db/schema";
import { unseal } from "@/lib/crypto/secrets";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addConnector, addTool, seedAgent } from "./connector-support";

let app: TestApp;
let seeded: Seeded;
let agentId: string;
let other: { projectId: string; key: string };
let otherAgentId: string;

const SECRET = "sk_live_abcdef123456";
const API = { name: "Shop API", type: "API", config: { base_url: "https://api.shop.example.com/v1", auth_type: "BEARER", secret: SECRET } };

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  agentId = await seedAgent(app, seeded.projectId);
  other = await app.addProject(seeded);
  otherAgentId = await seedAgent(app, other.projectId);
});
afterAll(() => app?.close());

async function storedRow(id: string) {
  const [row] = await app.db.select().from(businessAgentConnectors).where(eq(businessAgentConnectors.id, id));
  return row!;
}

describe("POST /business-agents/{id}/connectors", () => {
  it("creates an API connector whose secret is sealed at rest and read back masked", async () => {
    const created = await addConnector(app, seeded.key, agentId, API);
    expect(created).toMatchObject({
      object: "business_agent_connector",
      business_agent_id: agentId,
      meta_connector_id: null,
      name: "Shop API",
      type: "API",
      status: "ACTIVE",
      tools: [],
      config: { base_url: "https://api.shop.example.com/v1", auth_type: "BEARER", auth_header: null, secret: "••••3456" },
    });
    expect(created.id).toMatch(/^bacn_/);
    expect(JSON.stringify(created)).not.toContain(SECRET);
    const row = await storedRow(created.id);
    expect(row.config).not.toHaveProperty("secret");
    expect(JSON.stringify(row.config)).not.toContain(SECRET);
    expect(row.sealedSecret).not.toContain(SECRET);
    expect(unseal(row.sealedSecret!)).toBe(SECRET);
  });

  it("masks a secret shorter than 8 characters entirely", async () => {
    const created = await addConnector(app, seeded.key, agentId, { ...API, config: { ...API.config, auth_type: "API_KEY", secret: "k123" } });
    expect(created.config.secret).toBe("••••");
  });

  it("accepts business_agent_id equal to the path's and refuses another one with 400", async () => {
    const same = await addConnector(app, seeded.key, agentId, { business_agent_id: agentId, name: "Forms", type: "FLOWS" });
    expect(same).toMatchObject({ type: "FLOWS", config: null });
    const res = await app.call("POST", `/business-agents/${agentId}/connectors`, {
      key: seeded.key,
      body: { business_agent_id: otherAgentId, name: "Forms", type: "FLOWS" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", issues: { business_agent_id: [`Expected ${agentId}.`] } });
  });

  it.each([
    ["a non-http base_url", { base_url: "ftp://files.example.com", auth_type: "NONE" }, "config.base_url"],
    ["credentials in the base_url", { base_url: "https://u:p@api.example.com", auth_type: "NONE" }, "config.base_url"],
    ["BEARER without a secret", { base_url: "https://api.example.com", auth_type: "BEARER" }, "config.secret"],
    ["an unknown auth_type", { base_url: "https://api.example.com", auth_type: "BASIC" }, "config.auth_type"],
    [
      "an auth_header the call sets itself",
      { base_url: "https://api.example.com", auth_type: "API_KEY", auth_header: "x-svc-signature", secret: "s3cr3t-value" },
      "config.auth_header",
    ],
  ])("refuses an API config with %s (400 with issues)", async (_name, config, path) => {
    const res = await app.call("POST", `/business-agents/${agentId}/connectors`, { key: seeded.key, body: { name: "Bad", type: "API", config } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(Object.keys(res.body.issues)).toContain(path);
  });

  it("refuses an unknown type and unknown keys", async () => {
    const badType = await app.call("POST", `/business-agents/${agentId}/connectors`, { key: seeded.key, body: { name: "X", type: "SOAP" } });
    expect(badType.status).toBe(400);
    const extra = await app.call("POST", `/business-agents/${agentId}/connectors`, { key: seeded.key, body: { name: "X", type: "CUSTOM", colour: "red" } });
    expect(extra.status).toBe(400);
  });

  it("answers 404 for another project's agent", async () => {
    const res = await app.call("POST", `/business-agents/${otherAgentId}/connectors`, { key: seeded.key, body: { name: "X", type: "CUSTOM" } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found", message: `No business agent with id '${otherAgentId}'.` });
  });
});

describe("GET /business-agents/{id}/connectors", () => {
  it("lists the agent's connectors, oldest first, each with its tools and its secret masked", async () => {
    // A project of its own: its agent has exactly these connectors.
    const fresh = await app.addProject(seeded, "Listing");
    const agent = await seedAgent(app, fresh.projectId);
    const api = await addConnector(app, fresh.key, agent, API);
    const noop = await addConnector(app, fresh.key, agent, { name: "Misc", type: "CUSTOM", config: { note: "kept as is" } });
    const tool = await addTool(app, fresh.key, noop.id, { name: "hours", backing_type: "NOOP", config: { response: { text: "9 to 5" } } });
    const res = await app.call("GET", `/business-agents/${agent}/connectors`, { key: fresh.key });
    expect(res.status).toBe(200);
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([api.id, noop.id]);
    expect(res.body.data[0].config.secret).toBe("••••3456");
    expect(res.body.data[1]).toMatchObject({ config: { note: "kept as is" }, tools: [{ id: tool.id, name: "hours", backing_type: "NOOP" }] });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });

  it("answers 404 for another project's agent", async () => {
    const res = await app.call("GET", `/business-agents/${otherAgentId}/connectors`, { key: seeded.key });
    expect(res.status).toBe(404);
  });
});

describe("PATCH /business-agent-connectors/{id}", () => {
  it("keeps the secret when the masked value is sent back, replaces it with a new one, removes it with null", async () => {
    const created = await addConnector(app, seeded.key, agentId, API);
    const echoed = await app.call("PATCH", `/business-agent-connectors/${created.id}`, {
      key: seeded.key,
      body: { name: "Shop API v2", config: { ...created.config, base_url: "https://api.shop.example.com/v2" } },
    });
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ name: "Shop API v2", config: { base_url: "https://api.shop.example.com/v2", secret: "••••3456" } });
    expect(unseal((await storedRow(created.id)).sealedSecret!)).toBe(SECRET);

    const rotated = await app.call("PATCH", `/business-agent-connectors/${created.id}`, {
      key: seeded.key,
      body: { config: { base_url: "https://api.shop.example.com/v2", auth_type: "BEARER", secret: "new-secret-9999" } },
    });
    expect(rotated.body.config.secret).toBe("••••9999");
    expect(JSON.stringify(rotated.body)).not.toContain("new-secret-9999");
    expect(unseal((await storedRow(created.id)).sealedSecret!)).toBe("new-secret-9999");

    const removed = await app.call("PATCH", `/business-agent-connectors/${created.id}`, {
      key: seeded.key,
      body: { config: { base_url: "https://api.shop.example.com/v2", auth_type: "NONE", secret: null } },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.config).not.toHaveProperty("secret");
    expect((await storedRow(created.id)).sealedSecret).toBeNull();
  });

  it("a PATCH without config keeps the config and the secret; status DISABLED is stored", async () => {
    const created = await addConnector(app, seeded.key, agentId, API);
    const res = await app.call("PATCH", `/business-agent-connectors/${created.id}`, { key: seeded.key, body: { status: "DISABLED" } });
    expect(res.body).toMatchObject({ status: "DISABLED", config: { base_url: API.config.base_url, secret: "••••3456" } });
  });

  it("refuses to leave type API while API_ENDPOINT tools remain (409 conflict)", async () => {
    const created = await addConnector(app, seeded.key, agentId, API);
    await addTool(app, seeded.key, created.id, { name: "lookup_order", backing_type: "API_ENDPOINT", config: { method: "GET", path: "/orders" } });
    const res = await app.call("PATCH", `/business-agent-connectors/${created.id}`, { key: seeded.key, body: { type: "CUSTOM" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("conflict");
  });

  it("checks the config again when only the type changes to API", async () => {
    const created = await addConnector(app, seeded.key, agentId, { name: "Later API", type: "CUSTOM" });
    const res = await app.call("PATCH", `/business-agent-connectors/${created.id}`, { key: seeded.key, body: { type: "API" } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.issues)).toContain("config.base_url");
  });

  it("answers 404 for another project's connector", async () => {
    const theirs = await addConnector(app, other.key, otherAgentId, { name: "Theirs", type: "CUSTOM" });
    const res = await app.call("PATCH", `/business-agent-connectors/${theirs.id}`, { key: seeded.key, body: { name: "Mine now" } });
    expect(res.status).toBe(404);
    expect((await storedRow(theirs.id)).name).toBe("Theirs");
  });
});

describe("DELETE /business-agent-connectors/{id}", () => {
  it("deletes the connector and its tools", async () => {
    const created = await addConnector(app, seeded.key, agentId, { name: "Temp", type: "CUSTOM" });
    const tool = await addTool(app, seeded.key, created.id, { name: "temp_tool", backing_type: "NOOP", config: { response: "ok" } });
    const res = await app.call("DELETE", `/business-agent-connectors/${created.id}`, { key: seeded.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "business_agent_connector", id: created.id, deleted: true });
    expect(await app.db.select().from(businessAgentTools).where(eq(businessAgentTools.id, tool.id))).toEqual([]);
    const again = await app.call("DELETE", `/business-agent-connectors/${created.id}`, { key: seeded.key });
    expect(again.status).toBe(404);
  });

  it("answers 404 for another project's connector and leaves it", async () => {
    const theirs = await addConnector(app, other.key, otherAgentId, { name: "Theirs too", type: "CUSTOM" });
    const res = await app.call("DELETE", `/business-agent-connectors/${theirs.id}`, { key: seeded.key });
    expect(res.status).toBe(404);
    expect(await storedRow(theirs.id)).toBeDefined();
  });
});

describe("scopes", () => {
  it("business_agents:read lists; writes need business_agents:write; other scopes get nothing", async () => {
    const reader = await app.addKey(seeded, ["business_agents:read"]);
    expect((await app.call("GET", `/business-agents/${agentId}/connectors`, { key: reader })).status).toBe(200);
    const write = await app.call("POST", `/business-agents/${agentId}/connectors`, { key: reader, body: { name: "X", type: "CUSTOM" } });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ error: "insufficient_scope", required_scope: "business_agents:write" });
    const outsider = await app.addKey(seeded, ["functions:read"]);
    const read = await app.call("GET", `/business-agents/${agentId}/connectors`, { key: outsider });
    expect(read).toMatchObject({ status: 403, body: { required_scope: "business_agents:read" } });
  });
});
