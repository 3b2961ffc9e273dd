import { z } from "zod";

/**
 * A skill as POST/PUT skills and config-as-code take it (docs/spec/decisions.md "Business agents"):
 * one definition for the API schema (which adds its OpenAPI descriptions) and the config document.
 */
export const skillFields = {
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z][a-z0-9_-]*$/, "A slug: lower-case letters, digits, '-' and '_', starting with a letter."),
  description: z.string().min(1).max(1024),
  triggers: z.array(z.string().trim().min(1).max(100)).min(1).max(50),
  tool: z.string().min(1).max(64).optional(),
  response: z.string().min(1).max(4096).optional(),
};

export const TOOL_OR_RESPONSE = {
  check: (skill: { tool?: string | undefined; response?: string | undefined }) => skill.tool !== undefined || skill.response !== undefined,
  message: "A skill needs a tool, a response or both.",
} as const;

/** A skill as its fields parse, before or after the API's OpenAPI descriptions. */
export type SkillFields = z.infer<z.ZodObject<typeof skillFields>>;

/** Each skill as stored (PUT skills and config apply): only the documented keys, the optional ones when given. */
export function storedSkill(skill: SkillFields): SkillFields {
  return {
    name: skill.name,
    description: skill.description,
    triggers: skill.triggers,
    ...(skill.tool ? { tool: skill.tool } : {}),
    ...(skill.response !== undefined ? { response: skill.response } : {}),
  };
}
