import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businessAgents } from "@/lib/db/schema";
import { runAgentProvision } from "@/lib/domain/agents/jobs";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";

/**
 * Provisioning through the provider port against the built-in simulator over real HTTP: the job takes
 * an applied agent to ACTIVE with the provider's agent id, or to ERROR with the provider's refusal.
 */
let h: Harness;
let seeded: Seeded;
let serial = 0;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
});
afterAll(() => h.close());

/** Connects a fresh PLATFORM_A number to the project (the simulator reports it in good standing). */
async function connect(): Promise<{ channelId: string; phoneNumberId: string }> {
  serial += 1;
  const phoneNumberId = `pn-agent-${serial}`;
  const res = await h.app.call("POST", "/channels", {
    key: seeded.key,
    body: {
      platform: "PLATFORM_A",
      phone_number: `+1555777000${serial}`,
      credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-agent-${serial}`, access_token: "t" },
    },
  });
  expect(res.status).toBe(200);
  return { channelId: res.body.id, phoneNumberId };
}

const apply = (body: Record<string, unknown>) => h.app.call("POST", "/business-agents", { key: seeded.key, body });
const read = async (id: string) => (await h.app.call("GET", `/business-agents/${id}`, { key: seeded.key })).body;
const simulatorAgent = (id: string) => h.server.simulator.state.agents.get(id);

async function failNext(phoneNumberId: string, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${h.server.url}/api/simulator/control/agents/fail-next`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone_number_id: phoneNumberId, ...extra }),
  });
  expect(res.status).toBe(200);
}

describe("agents.provision", () => {
  it("takes a first apply from PROVISIONING to ACTIVE with the provider's agent id and settings", async () => {
    const { channelId, phoneNumberId } = await connect();
    const res = await apply({ channel_id: channelId, persona: "Helpful", knowledge: { faq: [] }, custom: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "PROVISIONING", meta_agent_id: null, eligibility: { eligible: true, reasons: [] } });
    await h.settle(20);
    const agent = await read(res.body.id);
    expect(agent).toMatchObject({ status: "ACTIVE", error_message: null });
    expect(agent.meta_agent_id).toMatch(/^\d+$/);
    expect(simulatorAgent(agent.meta_agent_id)).toMatchObject({
      phone_number_id: phoneNumberId,
      enabled: true,
      settings: { persona: "Helpful", knowledge: { faq: [] }, custom: 1 },
      skills: [],
    });
  });

  it("a provider refusal → ERROR with error_message; applying again provisions it", async () => {
    const { channelId, phoneNumberId } = await connect();
    await failNext(phoneNumberId, { message: "The number is not eligible for a business agent." });
    const res = await apply({ channel_id: channelId, persona: "x" });
    await h.settle(20);
    const failed = await read(res.body.id);
    expect(failed).toMatchObject({ status: "ERROR", meta_agent_id: null });
    expect(failed.error_message).toContain("The number is not eligible for a business agent.");
    expect(failed.error_message).toContain("code 100");

    const again = await apply({ channel_id: channelId });
    expect(again.body).toMatchObject({ id: res.body.id, status: "PROVISIONING", error_message: null });
    await h.settle(20);
    expect(await read(res.body.id)).toMatchObject({ status: "ACTIVE", error_message: null });
  });

  it("a re-apply of an ACTIVE agent stays ACTIVE and sends the new settings; enabled: false disables it at the provider too", async () => {
    const { channelId } = await connect();
    const created = await apply({ channel_id: channelId, persona: "A" });
    await h.settle(20);
    const { meta_agent_id: metaId } = await read(created.body.id);
    const reapplied = await apply({ channel_id: channelId, persona: "B" });
    expect(reapplied.body.status).toBe("ACTIVE");
    await h.settle(20);
    expect(await read(created.body.id)).toMatchObject({ status: "ACTIVE", meta_agent_id: metaId });
    expect(simulatorAgent(metaId)?.settings).toMatchObject({ persona: "B" });

    const off = await apply({ channel_id: channelId, enabled: false });
    expect(off.body.status).toBe("DISABLED");
    await h.settle(20);
    expect(await read(created.body.id)).toMatchObject({ status: "DISABLED", meta_agent_id: metaId });
    expect(simulatorAgent(metaId)?.enabled).toBe(false);
  });

  it("a failed settings sync keeps an ACTIVE agent ACTIVE and says why in error_message", async () => {
    const { channelId, phoneNumberId } = await connect();
    const created = await apply({ channel_id: channelId });
    await h.settle(20);
    await failNext(phoneNumberId);
    await h.app.call("PUT", `/business-agents/${created.body.id}/settings`, { key: seeded.key, body: { persona: "new" } });
    await h.settle(20);
    const agent = await read(created.body.id);
    expect(agent.status).toBe("ACTIVE");
    expect(agent.error_message).toContain("simulated failure");
  });

  it("is idempotent: running it again changes nothing and makes no second provider agent", async () => {
    const { channelId, phoneNumberId } = await connect();
    const created = await apply({ channel_id: channelId });
    await h.settle(20);
    const first = await read(created.body.id);
    const job = { businessAgentId: created.body.id, projectId: seeded.projectId };
    const run = { id: "again", retryCount: 0, retryLimit: 5 };
    await runAgentProvision(h.app.systemCtx(), job, run);
    // A worker that died after the provider's create, before our write: the next run finds the same agent.
    await h.app.db.update(businessAgents).set({ status: "PROVISIONING", metaAgentId: null }).where(eq(businessAgents.id, created.body.id));
    await runAgentProvision(h.app.systemCtx(), job, run);
    expect(await read(created.body.id)).toMatchObject({ status: "ACTIVE", meta_agent_id: first.meta_agent_id });
    const ofNumber = [...h.server.simulator.state.agents.values()].filter((a) => a.phone_number_id === phoneNumberId);
    expect(ofNumber).toHaveLength(1);
  });

  it("the shared sandbox completes without the provider", async () => {
    const before = h.server.simulator.state.agents.size;
    const res = await apply({ channel_id: "ch_sandbox" });
    await h.settle(20);
    expect(await read(res.body.id)).toMatchObject({ status: "ACTIVE", meta_agent_id: null });
    expect(h.server.simulator.state.agents.size).toBe(before);
  });
});
