import { z } from "zod";
import { automationEntrySchema, stepSchema, triggerSchema } from "@/lib/domain/automations/definition";
import type { Settings } from "@/lib/domain/context";
import { flowEntrySchema } from "./flow-entry";
import { configDocumentSchema } from "./schema";
import { schemaUrlOf } from "./export";

/**
 * GET /config/schema.json: the JSON Schema (2020-12) of the document, generated from the same zod
 * schema that parses it. zod drops refinements (superRefine) from the output, so the three that JSON
 * Schema can say are added back here by hand; the rest are named in the description.
 */
const NOT_EXPRESSED = [
  "each flow (key, locale) and each automation key appears once",
  "button ids of a send_reply are unique",
  "send_flow.flow names a flow key of the document or a flow of the project, run_function.function a deployed, active function",
  "project_id (and a flow's project_id / agent_id) is the API key's project",
  "locale is a BCP-47 tag (the pattern only approximates it)",
  "business_agents: one entry per channel_id, a channel visible to the project and eligible; connector keys unique per agent; tool names unique per agent; tool backings valid (a published flow, a deployed active function); skills name tools of the agent",
];

function addRefinements(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  if (ctx.zodSchema === stepSchema) Object.assign(ctx.jsonSchema, { minProperties: 1, maxProperties: 1 });
  if (ctx.zodSchema === triggerSchema) {
    Object.assign(ctx.jsonSchema, {
      if: { properties: { type: { const: "KEYWORD" } }, required: ["type"] },
      then: { required: ["keywords"], properties: { keywords: { type: "array", minItems: 1 } } },
    });
  }
  if (ctx.zodSchema === flowEntrySchema) Object.assign(ctx.jsonSchema, { oneOf: [{ required: ["draft"] }, { required: ["flow_json"] }] });
}

export function configJsonSchema(settings: Pick<Settings, "publicUrl">): Record<string, unknown> {
  const generated = z.toJSONSchema(configDocumentSchema, {
    target: "draft-2020-12",
    io: "input",
    override: (ctx) => addRefinements(ctx as { zodSchema: unknown; jsonSchema: Record<string, unknown> }),
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: schemaUrlOf(settings),
    title: "svc config-as-code document",
    description: `Validate, diff and apply with POST /config/validate, /config/diff, /config/apply. Checked there, not expressible here: ${NOT_EXPRESSED.join("; ")}.`,
    ...rest,
  };
}

/**
 * One automation entry's JSON Schema (its `properties` and `required`): how the automations API
 * documents the body it judges (lib/api/schemas/automations.ts). One action per step is added back; the
 * trigger's if/then is left out, since OpenAPI tooling (Redocly's example check) reads it as forbidding
 * the trigger's own fields: the trigger's description says it instead.
 */
export function automationEntryJsonSchema(): { properties: Record<string, unknown>; required: string[] } {
  const generated = z.toJSONSchema(automationEntrySchema, {
    target: "draft-2020-12",
    io: "input",
    override: (ctx) => {
      const { zodSchema, jsonSchema } = ctx as { zodSchema: unknown; jsonSchema: Record<string, unknown> };
      if (zodSchema === stepSchema) addRefinements({ zodSchema, jsonSchema });
      if (zodSchema === triggerSchema)
        jsonSchema.description = "type KEYWORD | WELCOME | ANY_MESSAGE; KEYWORD needs keywords (match_mode default CONTAINS_WORD).";
    },
  }) as { properties: Record<string, unknown>; required?: string[] };
  return { properties: generated.properties, required: generated.required ?? [] };
}
