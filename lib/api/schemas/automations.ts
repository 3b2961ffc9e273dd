import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { AUTOMATION_RUN_STATUSES } from "@/lib/db/schema";
import { STEP_KINDS, stepSchema, triggerSchema } from "@/lib/domain/automations/definition";

/**
 * Automations on the wire (docs/spec/decisions.md "Automations (routing FLOWS)"). trigger and steps are
 * the config-as-code entry's own schemas (lib/domain/automations/definition.ts), so what config
 * writes is what the API shows.
 */

/*
 * definition.ts builds its schemas before lib/api/zod adds `.openapi` (zod v4 attaches methods when a
 * schema is made), so they are used as they are and described by the fields that hold them.
 */
const AutomationTrigger = triggerSchema;
const AutomationStep = stepSchema;

export const Automation = z
  .object({
    object: z.literal("automation"),
    id: z.string(),
    key: z.string(),
    name: z.string(),
    trigger: AutomationTrigger.describe(
      "type KEYWORD | WELCOME | ANY_MESSAGE; KEYWORD has keywords and match_mode (EXACT, CONTAINS, CONTAINS_WORD; default CONTAINS_WORD).",
    ),
    steps: z
      .array(AutomationStep)
      .openapi({ description: "In order; each has exactly one action: send_reply, delay, wait_reply, pause_replies, send_flow or run_function." }),
    active: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Automation");

const AutomationRunStatus = z.enum(AUTOMATION_RUN_STATUSES).openapi("AutomationRunStatus");

export const AutomationRun = z
  .object({
    object: z.literal("automation_run"),
    id: z.string(),
    automation_id: z.string(),
    conversation_id: z.string(),
    contact_id: z.string(),
    status: AutomationRunStatus,
    step_index: z.number().int().openapi({ description: "The step the run is at: where it waits, failed or was cancelled; the step count once COMPLETED." }),
    step: z
      .enum(STEP_KINDS as [string, ...string[]])
      .nullable()
      .openapi({ description: "The kind of the step at step_index; null past the last step." }),
    variables: z.record(z.string(), z.unknown()).openapi({
      description: "vars.*: reply_text, reply_option and reply_message_id after a wait_reply; what run_function stored.",
    }),
    error: z.object({ code: z.string(), message: z.string() }).nullable().openapi({ description: "Why the run FAILED; null otherwise." }),
    wait_until: Timestamp.nullable().openapi({ description: "While WAITING: the delay's end or the wait_reply's timeout." }),
    started_at: Timestamp,
    ended_at: Timestamp.nullable(),
  })
  .openapi("AutomationRun");

export const AutomationUpdateRequest = z.object({ active: z.boolean() }).strict().openapi("AutomationUpdateRequest");

export const AutomationListQuery = PageQuery.extend({
  active: z.enum(["true", "false"]).optional(),
});

export const AutomationRunListQuery = PageQuery.extend({
  status: AutomationRunStatus.optional(),
});

export type AutomationWire = z.infer<typeof Automation>;
export type AutomationRunWire = z.infer<typeof AutomationRun>;
