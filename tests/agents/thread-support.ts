import { and, eq } from "drizzle-orm";
import { businessAgentConnectors, businessAgentTools, businessAgents, conversations, projects } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { newId } from "@/lib/ids";
import type { TestApp } from "../support/app";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * Helpers of the thread-control, routing and eval suites. Agents, connectors and tools are written
 * directly (as POST /business-agents and the connector API would write them, status ACTIVE): these
 * suites are about what the agent does, not about provisioning it.
 */
export const AGENT_SETTINGS = {
  handoff: { keywords: ["human", "agent", "person"], message: "Connecting you to a person." },
  knowledge: {
    faq: [
      { q: "What are your opening hours?", a: "Monday to Friday, 9:00 to 18:00." },
      { q: "Do you ship to Canada?", a: "Yes, in about 5 days." },
    ],
  },
};

export async function insertAgent(
  app: TestApp,
  projectId: string,
  options: { channelId?: string; status?: "ACTIVE" | "DISABLED" | "PROVISIONING"; settings?: Record<string, unknown>; skills?: Record<string, unknown>[] } = {},
): Promise<string> {
  const id = newId("businessAgent");
  const now = app.clock.now();
  await app.db.insert(businessAgents).values({
    id,
    projectId,
    channelId: options.channelId ?? SANDBOX_CHANNEL_ID,
    status: options.status ?? "ACTIVE",
    settings: options.settings ?? AGENT_SETTINGS,
    skills: options.skills ?? [],
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

export async function setAgentStatus(app: TestApp, agentId: string, status: "ACTIVE" | "DISABLED" | "PROVISIONING") {
  await app.db.update(businessAgents).set({ status }).where(eq(businessAgents.id, agentId));
}

/** A NOOP tool (returns config.response as is) on a CUSTOM connector of the agent. */
export async function insertNoopTool(app: TestApp, projectId: string, agentId: string, name: string, response: unknown): Promise<string> {
  const now = app.clock.now();
  const connectorId = newId("businessAgentConnector");
  await app.db.insert(businessAgentConnectors).values({
    id: connectorId,
    projectId,
    businessAgentId: agentId,
    name: `${name} connector`,
    type: "CUSTOM",
    config: null,
    status: "ACTIVE",
    createdAt: now,
    updatedAt: now,
  });
  const id = newId("businessAgentTool");
  await app.db.insert(businessAgentTools).values({
    id,
    projectId,
    businessAgentId: agentId,
    connectorId,
    name,
    backingType: "NOOP",
    config: { response },
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

export async function setRouting(app: TestApp, projectId: string, mode: "EXTERNAL" | "FLOWS" | "AGENT") {
  await app.db.update(projects).set({ routingMode: mode }).where(eq(projects.id, projectId));
  forgetAuthenticatedKeys();
}

export async function handoffOf(app: TestApp, projectId: string, contactId: string) {
  const [row] = await app.db
    .select({ status: conversations.handoffStatus, reason: conversations.handoffReason })
    .from(conversations)
    .where(and(eq(conversations.projectId, projectId), eq(conversations.contactId, contactId)));
  return row ?? null;
}
