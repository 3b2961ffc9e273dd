import type { AgentSkill } from "@/lib/client/agents";

/** A skill row of the editor; tool and response are "" when not set (the API wants them left out). */
export interface SkillDraft {
  name: string;
  description: string;
  triggers: string[];
  tool: string;
  response: string;
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

export function draftFromSkill(skill: Record<string, unknown>): SkillDraft {
  return {
    name: str(skill.name),
    description: str(skill.description),
    triggers: Array.isArray(skill.triggers) ? skill.triggers.filter((t): t is string => typeof t === "string") : [],
    tool: str(skill.tool),
    response: str(skill.response),
  };
}

export function skillBody(draft: SkillDraft): AgentSkill {
  const skill: AgentSkill = { name: draft.name.trim(), description: draft.description.trim(), triggers: draft.triggers };
  if (draft.tool) skill.tool = draft.tool;
  if (draft.response.trim()) skill.response = draft.response;
  return skill;
}

export const emptySkill = (): SkillDraft => ({ name: "", description: "", triggers: [], tool: "", response: "" });

/** The API's issues for skill `index` (keys "skills.<i>.<field>"), by field; "" holds the skill's own (e.g. the tool-or-response rule). */
export function skillIssues(issues: Record<string, string[]> | undefined, index: number): Record<string, string | undefined> {
  const prefix = `skills.${index}`;
  const out: Record<string, string | undefined> = {};
  for (const [key, messages] of Object.entries(issues ?? {})) {
    if (key === prefix) out[""] = messages[0];
    else if (key.startsWith(`${prefix}.`)) out[key.slice(prefix.length + 1).split(".")[0] ?? ""] ??= messages[0];
  }
  return out;
}
