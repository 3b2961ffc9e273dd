import { z } from "zod";
import { TOOL_BACKING_TYPES } from "@/lib/db/schema/business-agents";

/**
 * A tool as POST/PATCH tools and config-as-code take it (docs/spec/decisions.md "Business agents"):
 * one definition of the fields and their limits. The API schema adds its OpenAPI names and
 * descriptions; the config document adds its JSON Schema descriptions. Both are strict.
 */
export const TOOL_JSON_OBJECT = z.record(z.string(), z.unknown());

export const toolFields = {
  name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "Lower-case letters, digits and '_', starting with a letter, at most 64."),
  description: z.string().max(1024).nullable().optional(),
  backing_type: z.enum(TOOL_BACKING_TYPES),
  backing_flow_id: z.string().min(1).max(200).nullable().optional(),
  backing_function_id: z.string().min(1).max(200).nullable().optional(),
  input_schema: TOOL_JSON_OBJECT.nullable().optional(),
  config: TOOL_JSON_OBJECT.nullable().optional(),
};
