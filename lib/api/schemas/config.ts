import { z } from "@/lib/api/zod";
import { configDocumentSchema } from "@/lib/domain/config/schema";

/**
 * Config-as-code on the wire (docs/spec/service-spec.md "Config", docs/spec/decisions.md
 * "Config-as-code"). The request body is any JSON object: judging it is the operation's job, so a
 * document with mistakes answers 200 with `valid: false` and its issues rather than a 400.
 */

export const ConfigDocument = configDocumentSchema.openapi("ConfigDocument", {
  description: "The config-as-code document. Its JSON Schema (2020-12) is GET /config/schema.json.",
});

export const ConfigDocumentInput = z.record(z.string(), z.unknown()).openapi("ConfigDocumentInput", {
  description: "A config-as-code document (JSON Schema: GET /config/schema.json). Judged by the operation: mistakes come back as issues.",
});

const ConfigIssue = z
  .object({
    path: z.string().openapi({ description: "Dotted path into the document, e.g. automations.2.steps.0.send_reply.text; empty for the document itself." }),
    message: z.string(),
    severity: z.enum(["error", "warning"]),
  })
  .openapi("ConfigIssue");

const ConfigDiffItem = z
  .object({
    type: z.enum(["flow", "automation", "webhook", "project", "business_agent", "business_agent_connector", "business_agent_tool"]),
    key: z.string().openapi({
      description: "flow: its key, with @locale for a locale entry (welcome, welcome@es); automation: its key; project: its id; webhook: url.",
    }),
    action: z.enum(["create", "update", "delete", "unchanged"]),
    changes: z
      .array(z.string())
      .optional()
      .openapi({ description: "On update: the fields that change, by their document names (order: the automation moved)." }),
  })
  .openapi("ConfigDiffItem");

export const ConfigValidation = z
  .object({
    object: z.literal("config_validation"),
    valid: z.boolean(),
    // A union, not .nullable(): on a registered schema with a description, .nullable() is written as
    // allOf [ref, {type: [object, null]}], which no null satisfies (the ref).
    config: z.union([ConfigDocument, z.null()]).openapi({ description: "The document as parsed (null when it does not parse)." }),
    issues: z.array(ConfigIssue),
  })
  .openapi("ConfigValidation");

export const ConfigDiff = z
  .object({ object: z.literal("config_diff"), valid: z.boolean(), issues: z.array(ConfigIssue), diff: z.array(ConfigDiffItem) })
  .openapi("ConfigDiff");

export const ConfigApply = z
  .object({
    object: z.literal("config_apply"),
    valid: z.literal(true),
    issues: z.array(ConfigIssue).openapi({ description: "Warnings only: a document with errors is refused with 422 config_invalid." }),
    diff: z.array(ConfigDiffItem),
    config: ConfigDocument.openapi({ description: "The project's document after the apply (as GET /config exports it)." }),
  })
  .openapi("ConfigApply");

export const ConfigJsonSchema = z.record(z.string(), z.unknown()).openapi("ConfigJsonSchema", { description: "A JSON Schema (2020-12) document." });

export type ConfigIssueWire = z.infer<typeof ConfigIssue>;
export type ConfigDiffItemWire = z.infer<typeof ConfigDiffItem>;
