import { z } from "zod";
import { AUTOMATION_KEY } from "@/lib/domain/automations/definition";
import { draftSchemas } from "@/lib/domain/flows/draft-schema";

/**
 * A flow entry of the config document (docs/spec/service-spec.md "Config", docs/spec/decisions.md
 * "Config-as-code"). The draft is the one POST /flows takes (flows/draft-schema.ts), strict here so a typo in a config file is an issue rather than a silently dropped key; the
 * provider's rules stay flow findings (lib/domain/flows/flow-json), reported as warnings.
 */

/** Flow and automation keys share one pattern (decisions.md "Config-as-code": keys). */
export const CONFIG_KEY = AUTOMATION_KEY;
const KEY_MESSAGE = "A key is 1-64 lower-case letters, digits, _ or -, starting with a letter or digit.";

/** BCP-47-shaped, or empty (the group default); canonicalised (pt-br → pt-BR) before use. */
const LOCALE = /^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*)?$/;

export const draftSchema = draftSchemas("strict").draft;

/** The provider's Flow JSON: version and screens are named, everything else is kept as given. */
export const flowJsonSchema = z.looseObject({
  version: z.string().min(1).max(20),
  screens: z.array(z.record(z.string(), z.unknown())).min(1).max(500),
});

export const flowEntrySchema = z
  .object({
    key: z.string().regex(CONFIG_KEY, KEY_MESSAGE),
    name: z.string().trim().min(1).max(200),
    locale: z.string().max(35).regex(LOCALE, "A BCP-47 tag such as en, pt-BR or es-419 (omit it for the group default).").nullable().optional(),
    description: z.string().max(2000).nullable().optional(),
    project_id: z.string().min(1).max(200).optional(),
    agent_id: z.string().min(1).max(200).optional(),
    runtime_mode: z.enum(["STATIC", "DATA_EXCHANGE"]).optional(),
    data_exchange_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional(),
    draft: draftSchema.optional(),
    flow_json: flowJsonSchema.optional(),
  })
  .strict()
  .superRefine((entry, issues) => {
    if ((entry.draft === undefined) === (entry.flow_json === undefined)) {
      issues.addIssue({ code: "custom", path: ["draft"], message: "Give exactly one of draft or flow_json." });
    }
  });

export type FlowEntry = z.infer<typeof flowEntrySchema>;
