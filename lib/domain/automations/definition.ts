import { z } from "zod";

/**
 * What an automation is, as config-as-code writes it (docs/spec/service-spec.md "Config", decisions.md
 * "Automations (routing FLOWS)"). One zod schema serves the config document, its JSON Schema, the
 * stored rows and the engine, so the four cannot drift.
 */
export const AUTOMATION_KEY = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MATCH_MODES = ["EXACT", "CONTAINS", "CONTAINS_WORD"] as const;
const TRIGGER_TYPES = ["KEYWORD", "WELCOME", "ANY_MESSAGE"] as const;
const RESULT_MODES = ["reply", "variables", "side_effect"] as const;
const WAIT_REPLY_MAX_HOURS = 168;

const matchModeSchema = z.enum(MATCH_MODES);

export const triggerSchema = z
  .object({
    type: z.enum(TRIGGER_TYPES),
    match_mode: matchModeSchema.optional(),
    keywords: z.array(z.string().trim().min(1).max(256)).max(50).optional(),
  })
  .strict()
  .superRefine((trigger, issues) => {
    if (trigger.type === "KEYWORD" && !trigger.keywords?.length) {
      issues.addIssue({ code: "custom", path: ["keywords"], message: "A KEYWORD trigger needs at least one keyword." });
    }
  });

const replyButtonSchema = z.object({ id: z.string().min(1).max(256), title: z.string().trim().min(1).max(20) }).strict();

const sendReplyStepSchema = z
  .object({ text: z.string().trim().min(1).max(4096), buttons: z.array(replyButtonSchema).max(3).optional() })
  .strict()
  .superRefine((step, issues) => {
    const ids = new Set<string>();
    step.buttons?.forEach((button, index) => {
      if (ids.has(button.id)) issues.addIssue({ code: "custom", path: ["buttons", index, "id"], message: `Button id '${button.id}' is used twice.` });
      ids.add(button.id);
    });
  });

const delayStepSchema = z
  .object({
    minutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24 * 30),
  })
  .strict();

const waitOptionSchema = z
  .object({
    id: z.string().min(1).max(256),
    label: z.string().trim().min(1).max(256),
    keywords: z.array(z.string().trim().min(1).max(256)).max(50).optional(),
    matchMode: matchModeSchema.optional(),
  })
  .strict();

const waitReplyStepSchema = z
  .object({ timeout_hours: z.number().int().min(1).max(WAIT_REPLY_MAX_HOURS).optional(), options: z.array(waitOptionSchema).max(20).optional() })
  .strict();

const pauseRepliesStepSchema = z.object({ reason: z.string().trim().max(512).optional() }).strict();

const sendFlowStepSchema = z
  .object({
    flow: z.string().min(1).max(128),
    body_text: z.string().trim().min(1).max(1024).optional(),
    flow_cta: z.string().trim().min(1).max(30).optional(),
    header_text: z.string().trim().min(1).max(60).optional(),
    footer_text: z.string().trim().min(1).max(60).optional(),
  })
  .strict();

const runFunctionStepSchema = z
  .object({
    function: z.string().min(1).max(128),
    result_mode: z.enum(RESULT_MODES).optional(),
    variable_name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "A variable name is letters, digits and _ (not starting with a digit).")
      .optional(),
    reply_field: z.string().min(1).max(128).optional(),
  })
  .strict();

/** Exactly one action key per step: a strict object of optional keys, refined to one. */
export const stepSchema = z
  .object({
    send_reply: sendReplyStepSchema.optional(),
    delay: delayStepSchema.optional(),
    wait_reply: waitReplyStepSchema.optional(),
    pause_replies: pauseRepliesStepSchema.optional(),
    send_flow: sendFlowStepSchema.optional(),
    run_function: runFunctionStepSchema.optional(),
  })
  .strict()
  .superRefine((step, issues) => {
    const keys = Object.keys(step).filter((key) => step[key as keyof typeof step] !== undefined);
    if (keys.length !== 1) {
      issues.addIssue({
        code: "custom",
        message: `A step has exactly one action (send_reply, delay, wait_reply, pause_replies, send_flow or run_function); this one has ${keys.length ? keys.join(", ") : "none"}.`,
      });
    }
  });

export const automationEntrySchema = z
  .object({
    key: z.string().regex(AUTOMATION_KEY, "A key is 1-64 lower-case letters, digits, _ or -, starting with a letter or digit."),
    name: z.string().trim().min(1).max(256),
    trigger: triggerSchema,
    steps: z.array(stepSchema).min(1).max(50),
    active: z.boolean().optional(),
  })
  .strict();

export type AutomationTrigger = z.infer<typeof triggerSchema>;
export type AutomationStep = z.infer<typeof stepSchema>;
export type AutomationEntry = z.infer<typeof automationEntrySchema>;
export type StepKind = keyof AutomationStep;
export type MatchMode = (typeof MATCH_MODES)[number];

export const STEP_KINDS: readonly StepKind[] = ["send_reply", "delay", "wait_reply", "pause_replies", "send_flow", "run_function"];

/** The one action of a validated step. */
export function stepKind(step: AutomationStep): StepKind {
  const kind = STEP_KINDS.find((k) => step[k] !== undefined);
  if (!kind) throw new Error("A validated step has one action.");
  return kind;
}
