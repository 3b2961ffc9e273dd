import { and, eq, inArray } from "drizzle-orm";
import { businessAgents, businessAgentTools } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, invalidRequest } from "@/lib/errors";
import { getAgentRowOrThrow } from "./agent-row";
import { enqueueProvision } from "./provision";
import { storedSkill, type SkillFields } from "./skill-schema";
import type { AgentRow } from "./serialize";

/**
 * An agent's skills (docs/spec/decisions.md "Business agents"): `{name, description, triggers, tool?,
 * response?}`. PUT replaces the whole list; the shapes are checked by the route's schema, the
 * references (tool names of this agent, unique skill names) here.
 */
export type Skill = SkillFields;

function serializeSkills(row: AgentRow, result: Record<string, unknown>) {
  return { object: "business_agent_skills" as const, business_agent_id: row.id, data: row.skills, result };
}

export async function getSkills(ctx: Ctx, id: string) {
  const row = await getAgentRowOrThrow(ctx, id);
  return serializeSkills(row, { count: row.skills.length });
}

/** Names used twice in the list: 400 with the later positions. */
function assertUniqueNames(skills: Skill[]): void {
  const seen = new Set<string>();
  const issues: Record<string, string[]> = {};
  skills.forEach((skill, i) => {
    if (seen.has(skill.name)) issues[`skills.${i}.name`] = [`Another skill is named '${skill.name}': names are unique per agent.`];
    seen.add(skill.name);
  });
  if (Object.keys(issues).length) throw invalidRequest("Skill names must be unique.", issues);
}

/** A `tool` that is no tool of this agent: 422 with the positions. */
async function assertToolsExist(ctx: Ctx, agentId: string, skills: Skill[]): Promise<void> {
  const names = [...new Set(skills.map((s) => s.tool).filter((t): t is string => Boolean(t)))];
  if (!names.length) return;
  const found = await ctx.db
    .select({ name: businessAgentTools.name })
    .from(businessAgentTools)
    .where(and(eq(businessAgentTools.projectId, ctx.project.id), eq(businessAgentTools.businessAgentId, agentId), inArray(businessAgentTools.name, names)));
  const known = new Set(found.map((t) => t.name));
  const issues: Record<string, string[]> = {};
  skills.forEach((skill, i) => {
    if (skill.tool && !known.has(skill.tool)) issues[`skills.${i}.tool`] = [`No tool named '${skill.tool}' on agent ${agentId}.`];
  });
  if (Object.keys(issues).length) {
    throw new SvcError(
      "unprocessable",
      "A skill names a tool this agent does not have. Create the tool first (POST /business-agent-connectors/{id}/tools), or fix the name.",
      {
        issues,
      },
    );
  }
}

/** What the replacement changed, by skill name. */
function diffSkills(before: Record<string, unknown>[], after: Record<string, unknown>[]) {
  const old = new Map(before.map((s) => [String(s.name), JSON.stringify(s)]));
  const added: string[] = [];
  const updated: string[] = [];
  for (const skill of after) {
    const previous = old.get(String(skill.name));
    if (previous === undefined) added.push(String(skill.name));
    else if (previous !== JSON.stringify(skill)) updated.push(String(skill.name));
  }
  const kept = new Set(after.map((s) => String(s.name)));
  const removed = [...old.keys()].filter((name) => !kept.has(name));
  return { count: after.length, added, updated, removed };
}

/**
 * PUT /business-agents/{id}/skills: replaces the list. `result` says what changed ({count, added,
 * updated, removed}, by name). An agent the provider knows gets the new skills through agents.provision.
 */
export async function putSkills(ctx: Ctx, id: string, input: { business_agent_id: string; skills: Skill[] }) {
  if (input.business_agent_id !== id) {
    throw invalidRequest("business_agent_id must name the agent of the path.", { business_agent_id: [`Expected '${id}'.`] });
  }
  const current = await getAgentRowOrThrow(ctx, id);
  assertUniqueNames(input.skills);
  await assertToolsExist(ctx, current.id, input.skills);
  const skills = input.skills.map(storedSkill);
  return ctx.db.transaction(async (tx) => {
    const where = and(eq(businessAgents.projectId, ctx.project.id), eq(businessAgents.id, id));
    const [locked] = await tx.select().from(businessAgents).where(where).for("update");
    const [row] = await tx.update(businessAgents).set({ skills, updatedAt: ctx.now }).where(where).returning();
    const synced = locked!.metaAgentId !== null && (locked!.status === "ACTIVE" || locked!.status === "DISABLED");
    if (synced || locked!.status === "PROVISIONING") await enqueueProvision(ctx.ports.queue, tx, row!);
    return serializeSkills(row!, diffSkills(locked!.skills, skills));
  });
}
