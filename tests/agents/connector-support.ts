import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { businessAgents, organizations, plans, projects } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { Ctx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import type { TestApp } from "../support/app";

/**
 * Helpers of the connector, tool and tool-call suites. The agent row is written directly (one per
 * (project, channel), as POST /business-agents would make it): these suites are about what hangs
 * off an agent, not about provisioning one.
 */
export async function seedAgent(app: TestApp, projectId: string, channelId = SANDBOX_CHANNEL_ID): Promise<string> {
  const id = newId("businessAgent");
  const now = app.clock.now();
  await app.db.insert(businessAgents).values({ id, projectId, channelId, status: "ACTIVE", createdAt: now, updatedAt: now });
  return id;
}

/** A project verb's ctx (the system acting in the project), as the agent engine gets one. */
export async function projectCtx(app: TestApp, projectId: string): Promise<Ctx> {
  const [project] = await app.db.select().from(projects).where(eq(projects.id, projectId));
  const [org] = await app.db.select().from(organizations).where(eq(organizations.id, project!.organizationId));
  const [plan] = await app.db.select().from(plans).where(eq(plans.id, org!.planId));
  return { ...app.systemCtx(), org: org!, project: project!, plan: plan! };
}

export async function addConnector(app: TestApp, key: string, agentId: string, body: Record<string, unknown>) {
  const res = await app.call("POST", `/business-agents/${agentId}/connectors`, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string } & Record<string, any>;
}

export async function addTool(app: TestApp, key: string, connectorId: string, body: Record<string, unknown>) {
  const res = await app.call("POST", `/business-agent-connectors/${connectorId}/tools`, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string } & Record<string, any>;
}
