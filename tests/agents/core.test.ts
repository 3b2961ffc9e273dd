import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businessAgentConnectors, businessAgentTools, businessAgents, channels, organizations, projects } from "@/lib/db/schema";
import { seal } from "@/lib/crypto/secrets";
import { newId } from "@/lib/ids";
import { planTransition } from "@/lib/domain/agents/provision";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * The business agent itself on the real router and database: apply (upsert per channel), statuses,
 * settings merge, eligibility, skills, tenancy and scopes. Provisioning against the provider
 * simulator is in provisioning.test.ts; here the sandbox (no provider call) carries the agents.
 */
let app: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app?.close());

type ChannelOverrides = Partial<typeof channels.$inferInsert>;

/** A dedicated channel of the seeded organization, linked to `projectId`, in good standing unless overridden. */
async function channel(projectId: string | null, overrides: ChannelOverrides = {}): Promise<string> {
  const id = newId("channel");
  await app.db.insert(channels).values({
    id,
    organizationId: seeded.orgId,
    projectId,
    platform: "PLATFORM_A",
    status: "connected",
    numberMode: "dedicated",
    routingMode: "EXTERNAL",
    providerSenderId: `pn-${id}`,
    businessAccountId: `waba-${id}`,
    credentialsSealed: seal(JSON.stringify({ access_token: "t" })),
    businessVerificationStatus: "verified",
    accountReviewStatus: "APPROVED",
    phoneNumberStatus: "CONNECTED",
    paymentStatus: "active",
    ...overrides,
  });
  return id;
}

const apply = (body: Record<string, unknown>, key = seeded.key) => app.call("POST", "/business-agents", { key, body });
const get = (id: string) => app.call("GET", `/business-agents/${id}`, { key: seeded.key });
const eligibility = (channelId: string, key = seeded.key) => app.call("GET", `/business-agents/eligibility?channel_id=${channelId}`, { key });
const drain = () => app.runtime.ports.queue.drain();

/** A fresh project of the organization with its own key: each test that applies on the sandbox gets its own agent. */
async function project() {
  return app.addProject(seeded, `P ${newId("project")}`);
}

describe("POST /business-agents (apply)", () => {
  it("a first apply on the sandbox is PROVISIONING, then ACTIVE after the job, with no provider agent", async () => {
    const { key, projectId } = await project();
    const res = await apply({ channel_id: "ch_sandbox", persona: "Helpful", language: "en" }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: "business_agent",
      project_id: projectId,
      channel_id: "ch_sandbox",
      status: "PROVISIONING",
      meta_agent_id: null,
      error_message: null,
      settings: { persona: "Helpful", language: "en" },
      eligibility: { eligible: true, reasons: ["SANDBOX_TEST_ONLY"] },
    });
    expect(res.body.id).toMatch(/^ba_/);
    expect(res.body.settings).not.toHaveProperty("channel_id");
    expect(await drain()).toBeGreaterThan(0);
    const after = await app.call("GET", `/business-agents/${res.body.id}`, { key });
    expect(after.body).toMatchObject({ status: "ACTIVE", meta_agent_id: null, error_message: null });
  });

  it("keeps every key, extra ones included, and a re-apply updates the same agent, merging top-level keys", async () => {
    const { key } = await project();
    const first = await apply({ channel_id: "ch_sandbox", persona: "A", handoff: { keywords: ["human"] }, fallback_message: "Sorry?", custom: { x: 1 } }, key);
    await drain();
    const again = await apply({ channel_id: "ch_sandbox", persona: "B", knowledge: { faq: [{ q: "hours", a: "9-5" }] } }, key);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.status).toBe("ACTIVE");
    expect(again.body.settings).toEqual({
      persona: "B",
      handoff: { keywords: ["human"] },
      fallback_message: "Sorry?",
      custom: { x: 1 },
      knowledge: { faq: [{ q: "hours", a: "9-5" }] },
    });
    const listed = await app.call("GET", "/business-agents?channel_id=ch_sandbox", { key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([first.body.id]);
  });

  it("enabled: false → DISABLED, and stays so after the jobs; enabling again provisions it", async () => {
    const { key } = await project();
    const res = await apply({ channel_id: "ch_sandbox", enabled: false }, key);
    expect(res.body.status).toBe("DISABLED");
    await drain();
    expect((await app.call("GET", `/business-agents/${res.body.id}`, { key })).body.status).toBe("DISABLED");
    const on = await app.call("PUT", `/business-agents/${res.body.id}/settings`, { key, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect((await app.call("GET", `/business-agents/${res.body.id}`, { key })).body.status).toBe("PROVISIONING");
    await drain();
    expect((await app.call("GET", `/business-agents/${res.body.id}`, { key })).body.status).toBe("ACTIVE");
  });

  it("an ineligible channel is 412 channel_not_ready with the blockers, and no agent is written", async () => {
    const unverified = await channel(seeded.projectId, { businessVerificationStatus: "pending" });
    const res = await apply({ channel_id: unverified, persona: "x" });
    expect(res.status).toBe(412);
    expect(res.body).toMatchObject({ error: "channel_not_ready", channel_id: unverified, blockers: ["BUSINESS_NOT_VERIFIED"] });
    expect(await app.db.select().from(businessAgents).where(eq(businessAgents.channelId, unverified))).toEqual([]);
  });

  it("a channel of another organization is a 404", async () => {
    const other = await app.seed({ orgName: "Other" });
    const theirs = newId("channel");
    await app.db.insert(channels).values({
      id: theirs,
      organizationId: other.orgId,
      projectId: other.projectId,
      platform: "PLATFORM_A",
      status: "connected",
      numberMode: "dedicated",
      routingMode: "EXTERNAL",
    });
    expect((await apply({ channel_id: theirs })).status).toBe(404);
    expect((await eligibility(theirs)).status).toBe(404);
  });

  it("needs business_agents:write: a read key cannot apply, but can read", async () => {
    const readKey = await app.addKey(seeded, ["business_agents:read"]);
    const refused = await apply({ channel_id: "ch_sandbox" }, readKey);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "business_agents:write" });
    expect((await app.call("GET", "/business-agents", { key: readKey })).status).toBe(200);
    const noScope = await app.addKey(seeded, ["messages:send"]);
    expect((await app.call("GET", "/business-agents", { key: noScope })).status).toBe(403);
  });

  it("needs channel_id", async () => {
    const res = await apply({ persona: "x" });
    expect(res.status).toBe(400);
    expect(res.body.issues).toHaveProperty("channel_id");
  });
});

describe("GET /business-agents/eligibility", () => {
  it("the shared sandbox is eligible for testing only", async () => {
    const res = await eligibility("ch_sandbox");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: "business_agent_eligibility",
      channel_id: "ch_sandbox",
      eligibility: { eligible: true, reasons: ["SANDBOX_TEST_ONLY"] },
    });
    expect(res.body.eligibility.checked_at).toBe(app.clock.now().toISOString());
  });

  it("the project's own verified PLATFORM_A number is eligible with no reasons", async () => {
    const own = await channel(seeded.projectId);
    expect((await eligibility(own)).body.eligibility).toMatchObject({ eligible: true, reasons: [] });
  });

  it("a PLATFORM_B channel is not: CHANNEL_NOT_PLATFORM_A", async () => {
    await app.db.update(organizations).set({ platformBEnabled: true }).where(eq(organizations.id, seeded.orgId));
    forgetAuthenticatedKeys();
    const b = await channel(seeded.projectId, { platform: "PLATFORM_B", businessAccountId: null });
    const res = await eligibility(b);
    expect(res.body.eligibility).toMatchObject({ eligible: false, reasons: ["CHANNEL_NOT_PLATFORM_A"] });
    const refused = await apply({ channel_id: b });
    expect(refused.status).toBe(412);
    expect(refused.body.blockers).toEqual(["CHANNEL_NOT_PLATFORM_A"]);
  });

  it("a disconnected number is not: CHANNEL_NOT_CONNECTED", async () => {
    const gone = await channel(seeded.projectId, { status: "disconnected" });
    const res = await eligibility(gone);
    expect(res.body.eligibility.eligible).toBe(false);
    expect(res.body.eligibility.reasons).toContain("CHANNEL_NOT_CONNECTED");
  });

  it("an unverified business and unknown account statuses are reasons from publish readiness", async () => {
    const unknown = await channel(seeded.projectId, { businessVerificationStatus: "unverified", accountReviewStatus: null });
    const res = await eligibility(unknown);
    expect(res.body.eligibility).toMatchObject({ eligible: false, reasons: ["META_ACCOUNT_STATUS_UNKNOWN", "BUSINESS_NOT_VERIFIED"] });
  });

  it("another project's number of the same organization is not: CHANNEL_OF_ANOTHER_PROJECT", async () => {
    const sibling = await project();
    const theirs = await channel(sibling.projectId);
    await app.db.update(projects).set({ channelId: theirs }).where(eq(projects.id, sibling.projectId));
    forgetAuthenticatedKeys();
    expect((await eligibility(theirs)).body.eligibility).toMatchObject({ eligible: false, reasons: ["CHANNEL_OF_ANOTHER_PROJECT"] });
    expect((await eligibility(theirs, sibling.key)).body.eligibility).toMatchObject({ eligible: true, reasons: [] });
  });

  it("needs channel_id", async () => {
    expect((await app.call("GET", "/business-agents/eligibility", { key: seeded.key })).status).toBe(400);
  });
});

describe("GET /business-agents", () => {
  it("pages newest first and filters by channel", async () => {
    const p = await project();
    const own = await channel(p.projectId);
    const a = await apply({ channel_id: "ch_sandbox" }, p.key);
    const b = await apply({ channel_id: own, enabled: false }, p.key);
    const first = await app.call("GET", "/business-agents?limit=1", { key: p.key });
    expect(first.body).toMatchObject({ object: "list", has_more: true });
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([b.body.id]);
    const next = await app.call("GET", `/business-agents?limit=1&starting_after=${b.body.id}`, { key: p.key });
    expect(next.body.data.map((x: { id: string }) => x.id)).toEqual([a.body.id]);
    expect(next.body.has_more).toBe(false);
    const filtered = await app.call("GET", `/business-agents?channel_id=${own}`, { key: p.key });
    expect(filtered.body.data.map((x: { id: string }) => x.id)).toEqual([b.body.id]);
  });
});

describe("GET/PUT /business-agents/{id}/settings", () => {
  it("PUT merges top-level keys: the ones not sent stay, extra keys are kept", async () => {
    const { key } = await project();
    const created = await apply({ channel_id: "ch_sandbox", persona: "A", language: "en", handoff: { keywords: ["human"] } }, key);
    const res = await app.call("PUT", `/business-agents/${created.body.id}/settings`, {
      key,
      body: { persona: "B", handoff: { keywords: ["person"] }, tone: "dry" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: "business_agent_settings",
      business_agent_id: created.body.id,
      settings: { persona: "B", language: "en", handoff: { keywords: ["person"] }, tone: "dry" },
    });
    expect((await app.call("GET", `/business-agents/${created.body.id}/settings`, { key })).body).toEqual(res.body);
  });

  it("PUT enabled: false disables an ACTIVE agent", async () => {
    const { key } = await project();
    const created = await apply({ channel_id: "ch_sandbox" }, key);
    await drain();
    await app.call("PUT", `/business-agents/${created.body.id}/settings`, { key, body: { enabled: false } });
    expect((await app.call("GET", `/business-agents/${created.body.id}`, { key })).body.status).toBe("DISABLED");
  });
});

/** A connector and a tool of the agent, written as the connectors module would. */
async function tool(projectId: string, agentId: string, name: string) {
  const connectorId = newId("businessAgentConnector");
  await app.db.insert(businessAgentConnectors).values({ id: connectorId, projectId, businessAgentId: agentId, name: "c", type: "CUSTOM", status: "ACTIVE" });
  await app.db.insert(businessAgentTools).values({
    id: newId("businessAgentTool"),
    projectId,
    businessAgentId: agentId,
    connectorId,
    name,
    backingType: "NOOP",
    config: { response: { text: "ok" } },
  });
}

describe("GET/PUT /business-agents/{id}/skills", () => {
  const skill = (overrides: Record<string, unknown> = {}) => ({
    name: "hours",
    description: "Opening hours",
    triggers: ["hours", "open"],
    response: "9 to 5",
    ...overrides,
  });

  it("replaces the list and says what changed; GET reads it back", async () => {
    const p = await project();
    const agent = (await apply({ channel_id: "ch_sandbox" }, p.key)).body;
    await tool(p.projectId, agent.id, "lookup_order");
    const put = (skills: unknown[]) => app.call("PUT", `/business-agents/${agent.id}/skills`, { key: p.key, body: { business_agent_id: agent.id, skills } });
    const first = await put([skill(), skill({ name: "order", triggers: ["order"], tool: "lookup_order", response: undefined })]);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: "business_agent_skills",
      business_agent_id: agent.id,
      result: { count: 2, added: ["hours", "order"], updated: [], removed: [] },
    });
    expect(first.body.data[1]).toEqual({ name: "order", description: "Opening hours", triggers: ["order"], tool: "lookup_order" });
    const second = await put([skill({ response: "8 to 6" })]);
    expect(second.body.result).toEqual({ count: 1, added: [], updated: ["hours"], removed: ["order"] });
    const read = await app.call("GET", `/business-agents/${agent.id}/skills`, { key: p.key });
    expect(read.body).toEqual({ object: "business_agent_skills", business_agent_id: agent.id, data: [skill({ response: "8 to 6" })], result: { count: 1 } });
  });

  it("refuses bad skills: 400 for shapes, 422 for a tool the agent does not have", async () => {
    const p = await project();
    const agent = (await apply({ channel_id: "ch_sandbox" }, p.key)).body;
    const put = (body: Record<string, unknown>) =>
      app.call("PUT", `/business-agents/${agent.id}/skills`, { key: p.key, body: { business_agent_id: agent.id, ...body } });
    const cases: [Record<string, unknown>, string][] = [
      [{ skills: [skill({ name: "Not A Slug" })] }, "skills.0.name"],
      [{ skills: [skill({ name: "x".repeat(65) })] }, "skills.0.name"],
      [{ skills: [skill({ description: "d".repeat(1025) })] }, "skills.0.description"],
      [{ skills: [skill({ triggers: [] })] }, "skills.0.triggers"],
      [{ skills: [skill({ triggers: "hours" })] }, "skills.0.triggers"],
      [{ skills: [skill(), skill()] }, "skills.1.name"],
      [{ skills: [skill({ response: undefined })] }, "skills.0"],
    ];
    for (const [body, path] of cases) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(res.body.issues ?? {}).join(","), JSON.stringify(body).slice(0, 80)).toContain(path);
    }
    const unknownTool = await put({ skills: [skill({ tool: "nope" })] });
    expect(unknownTool.status).toBe(422);
    expect(unknownTool.body.issues).toHaveProperty(["skills.0.tool"]);
    const mismatch = await app.call("PUT", `/business-agents/${agent.id}/skills`, { key: p.key, body: { business_agent_id: "ba_other", skills: [] } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.issues).toHaveProperty("business_agent_id");
    expect((await app.call("GET", `/business-agents/${agent.id}/skills`, { key: p.key })).body.data).toEqual([]);
  });

  it("a tool of another agent does not count", async () => {
    const p = await project();
    const agent = (await apply({ channel_id: "ch_sandbox" }, p.key)).body;
    // Disabled: no provisioning job (this file has no provider to answer it).
    const other = (await apply({ channel_id: await channel(p.projectId), enabled: false }, p.key)).body;
    await tool(p.projectId, other.id, "elsewhere");
    const res = await app.call("PUT", `/business-agents/${agent.id}/skills`, {
      key: p.key,
      body: { business_agent_id: agent.id, skills: [skill({ tool: "elsewhere" })] },
    });
    expect(res.status).toBe(422);
  });
});

describe("another project's agent", () => {
  it("is a 404 on every operation", async () => {
    const sibling = await project();
    const theirs = (await apply({ channel_id: "ch_sandbox", persona: "theirs" }, sibling.key)).body;
    const calls: [string, string, unknown?][] = [
      ["GET", `/business-agents/${theirs.id}`],
      ["GET", `/business-agents/${theirs.id}/settings`],
      ["PUT", `/business-agents/${theirs.id}/settings`, { persona: "mine" }],
      ["GET", `/business-agents/${theirs.id}/skills`],
      ["PUT", `/business-agents/${theirs.id}/skills`, { business_agent_id: theirs.id, skills: [] }],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.call(method, path, { key: seeded.key, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    const listed = await app.call("GET", "/business-agents?limit=100", { key: seeded.key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).not.toContain(theirs.id);
    expect((await get(theirs.id)).status).toBe(404);
    expect((await app.call("GET", `/business-agents/${theirs.id}/settings`, { key: sibling.key })).body.settings).toEqual({ persona: "theirs" });
  });
});

describe("planTransition (the status rules)", () => {
  it.each([
    [null, {}, { status: "PROVISIONING", provision: true }],
    [null, { enabled: false }, { status: "DISABLED", provision: false }],
    [{ status: "ACTIVE", metaAgentId: "1" }, { persona: "x" }, { status: "ACTIVE", provision: true }],
    [{ status: "ACTIVE", metaAgentId: "1" }, { enabled: false }, { status: "DISABLED", provision: true }],
    [{ status: "ACTIVE", metaAgentId: null }, { enabled: false }, { status: "DISABLED", provision: false }],
    [{ status: "DISABLED", metaAgentId: "1" }, { enabled: true }, { status: "PROVISIONING", provision: true }],
    [{ status: "ERROR", metaAgentId: null }, {}, { status: "PROVISIONING", provision: true }],
  ] as const)("%j with %j → %j", (current, settings, expected) => {
    expect(planTransition(current, settings)).toEqual(expected);
  });
});
