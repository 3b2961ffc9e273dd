import { z } from "@/lib/api/zod";
import { PageQuery, Timestamp } from "@/lib/api/schemas/common";
import { AUTOMATION_EVALUATION_OUTCOMES, AUTOMATION_RUN_STATUSES } from "@/lib/db/schema";
import { AUTOMATION_REASONS, AUTOMATION_RESULTS, MESSAGE_REASONS, STEP_STATUSES } from "@/lib/domain/automations/records";
import { STEP_KINDS, stepSchema, triggerSchema } from "@/lib/domain/automations/definition";
import { automationEntryJsonSchema } from "@/lib/domain/config/json-schema";

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
    position: z.number().int().openapi({
      description: "0-based place in config order (the document's order): decides between two KEYWORD automations that both match.",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Automation");

const AutomationRunStatus = z.enum(AUTOMATION_RUN_STATUSES).openapi("AutomationRunStatus");

const RunError = z.object({ code: z.string(), message: z.string() });

export const AutomationRunStep = z
  .object({
    index: z.number().int().openapi({ description: "The step's place in the automation's steps (0-based)." }),
    type: z
      .enum(STEP_KINDS as [string, ...string[]])
      .nullable()
      .openapi({ description: "The step's action; null only for a step the automation no longer has." }),
    status: z.enum(STEP_STATUSES).openapi({
      description:
        "completed; waiting (a delay or a wait_reply); running (the run's current step); failed (with error); timed_out (a wait_reply without answer); cancelled (a newer run took the conversation).",
    }),
    started_at: Timestamp,
    ended_at: Timestamp.nullable(),
    duration_ms: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "ended_at - started_at for a wait; the step's own run time otherwise. Null until it ends." }),
    variables_after: z.record(z.string(), z.unknown()).openapi({ description: "The run's variables once the step was done (while it waits: as it began)." }),
    message_id: z.string().nullable().openapi({
      description: "The message the step sent (send_reply, send_flow, run_function in reply mode); for a wait_reply, the customer's reply it took.",
    }),
    invocation_id: z.string().nullable().openapi({ description: "A run_function step's function invocation (GET /functions/{id}/invocations)." }),
    error: RunError.nullable(),
  })
  .openapi("AutomationRunStep");

export const AutomationRun = z
  .object({
    object: z.literal("automation_run"),
    id: z.string(),
    automation_id: z.string(),
    conversation_id: z.string(),
    contact_id: z.string(),
    trigger_message_id: z.string().openapi({ description: "The customer message that started the run (GET /messages/{id}/automations says why)." }),
    status: AutomationRunStatus,
    step_index: z.number().int().openapi({ description: "The step the run is at: where it waits, failed or was cancelled; the step count once COMPLETED." }),
    step: z
      .enum(STEP_KINDS as [string, ...string[]])
      .nullable()
      .openapi({ description: "The kind of the step at step_index; null past the last step." }),
    variables: z.record(z.string(), z.unknown()).openapi({
      description: "vars.*: reply_text, reply_option and reply_message_id after a wait_reply; what run_function stored.",
    }),
    error: RunError.nullable().openapi({ description: "Why the run FAILED; null otherwise." }),
    wait_until: Timestamp.nullable().openapi({ description: "While WAITING: the delay's end or the wait_reply's timeout." }),
    steps: z.array(AutomationRunStep).openapi({ description: "What each step did, in step order, as the engine ran them." }),
    started_at: Timestamp,
    ended_at: Timestamp.nullable(),
  })
  .openapi("AutomationRun");

export const AutomationEvaluation = z
  .object({
    object: z.literal("automation_evaluation"),
    message_id: z.string(),
    conversation_id: z.string(),
    channel_id: z.string(),
    routing_mode: z
      .enum(["EXTERNAL", "FLOWS", "AGENT", "NONE"])
      .nullable()
      .openapi({ description: "The channel's effective routing when the message arrived; null for messages stored before it was recorded." }),
    decided_at: Timestamp.nullable().openapi({ description: "When the decision was made (the arrival, for a message never evaluated); null while pending." }),
    outcome: z
      .enum(AUTOMATION_EVALUATION_OUTCOMES)
      .openapi({ description: "started: a run began; resumed: a waiting run took it as its reply; none: nothing ran." }),
    run_id: z.string().nullable(),
    reason: z.enum(MESSAGE_REASONS).nullable().openapi({ description: "Why the outcome, when no trigger decided it (null when an automation started a run)." }),
    detail: z.string().openapi({ description: "The outcome in plain words." }),
    automations: z
      .array(
        z
          .object({
            automation_id: z.string(),
            key: z.string(),
            name: z.string(),
            position: z.number().int(),
            active: z.boolean(),
            trigger_type: z.enum(["KEYWORD", "WELCOME", "ANY_MESSAGE"]),
            result: z.enum(AUTOMATION_RESULTS),
            reason: z
              .enum([...AUTOMATION_REASONS, ...MESSAGE_REASONS])
              .nullable()
              .openapi({
                description:
                  "inactive, keyword_not_matched, not_first_message (WELCOME), earlier_match (one before it in config order ran), superseded (a trigger type that comes first ran); when the message was not judged, the message's reason.",
              }),
            detail: z.string().openapi({ description: "The reason in plain words." }),
          })
          .openapi("AutomationEvaluationItem"),
      )
      .openapi({
        description: "Every automation in config order, as the decision saw them (when no automation was judged: as they are now, each skipped).",
      }),
  })
  .openapi("AutomationEvaluation");

/*
 * The write bodies are judged by the operation, not by the route's parser: a mistake anywhere in them
 * (a step's shape included) is the 422 config_invalid config validate gives for the same entry, with
 * paths relative to the automation. So the parser takes any JSON object, and the documented shape (the
 * OpenAPI body, the MCP tool's arguments) is the config entry's own JSON Schema.
 */
const entry = automationEntryJsonSchema();
const positionProperty = {
  type: "integer",
  minimum: 0,
  description: "0-based place in config order; the others shift. Past the end, or left out on create: last.",
};
const judged =
  "Judged as POST /config/validate judges the entry: mistakes are 422 config_invalid with `config_issues` whose paths are relative to the automation.";

export const AutomationCreateRequest = z
  .record(z.string(), z.unknown())
  .openapi("AutomationCreateRequest", { description: `An automation entry of the config document, plus position. ${judged}` })
  .meta({ type: "object", properties: { ...entry.properties, position: positionProperty }, required: entry.required });

const { key: _key, ...changeable } = entry.properties;
export const AutomationUpdateRequest = z
  .record(z.string(), z.unknown())
  .openapi("AutomationUpdateRequest", {
    description: `Any of name, trigger, steps, active and position; the others stay. key cannot change here (422: rename it in the config document). ${judged}`,
  })
  .meta({ type: "object", properties: { ...changeable, position: positionProperty } });

export const AutomationDeleted = z.object({ object: z.literal("automation"), id: z.string(), deleted: z.literal(true) }).openapi("AutomationDeleted");

export const AutomationListQuery = PageQuery.extend({
  active: z.enum(["true", "false"]).optional(),
});

export const AutomationRunListQuery = PageQuery.extend({
  status: AutomationRunStatus.optional(),
});

export type AutomationWire = z.infer<typeof Automation>;
export type AutomationRunWire = z.infer<typeof AutomationRun>;
