import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { AutomationStep, AutomationTrigger } from "@/lib/domain/automations/definition";
import type { EvaluatedAutomation, StepLog } from "@/lib/domain/automations/records";
import { at, createdAt, updatedAt } from "./columns";
import { conversations } from "./conversations";
import { projects } from "./projects";

export const AUTOMATION_RUN_STATUSES = ["RUNNING", "WAITING", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"] as const;
export type AutomationRunStatus = (typeof AUTOMATION_RUN_STATUSES)[number];
export const AUTOMATION_EVALUATION_OUTCOMES = ["started", "resumed", "none"] as const;
export type AutomationEvaluationOutcome = (typeof AUTOMATION_EVALUATION_OUTCOMES)[number];

/**
 * A native automation (decisions.md "Automations (routing FLOWS)"): written by config-as-code and the
 * automations API, every row with its config key; `position` is the document's order (0..n-1), which
 * decides between two KEYWORD automations that both match.
 */
export const automations = pgTable(
  "automations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    name: text("name").notNull(),
    /** jsonb: compared by value when config is applied twice; export writes keys in schema order. */
    trigger: jsonb("trigger").$type<AutomationTrigger>().notNull(),
    steps: jsonb("steps").$type<AutomationStep[]>().notNull(),
    active: boolean("active").notNull().default(true),
    position: integer("position").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("automations_project_key").on(t.projectId, t.key), index("automations_project_id").on(t.projectId, t.id)],
);

/**
 * One automation started by one customer message. The row is the run's whole state (step_index,
 * variables, what it waits for): a worker that dies mid-step, or a restart during a delay or a
 * wait_reply, resumes from it.
 */
export const automationRuns = pgTable(
  "automation_runs",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    automationId: text("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** No foreign key: contacts are keyed by (project_id, id), and the conversation's cascade covers the run. */
    contactId: text("contact_id").notNull(),
    channelId: text("channel_id").notNull(),
    /** The message that started the run: one run per message. */
    triggerMessageId: text("trigger_message_id").notNull(),
    status: text("status", { enum: AUTOMATION_RUN_STATUSES }).notNull(),
    stepIndex: integer("step_index").notNull().default(0),
    variables: jsonb("variables").$type<Record<string, unknown>>().notNull().default({}),
    error: jsonb("error").$type<{ code: string; message: string } | null>(),
    /** While WAITING: a delay's end or a wait_reply's timeout. */
    waitUntil: at("wait_until"),
    /**
     * What each step did, by step index: written by the same statement that moves the run past (or
     * into a wait at) that step, so the log and the run's state never disagree (lib/domain/automations/records.ts).
     */
    stepLog: jsonb("step_log").$type<StepLog>().notNull().default({}),
    startedAt: at("started_at").notNull(),
    endedAt: at("ended_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("automation_runs_trigger_message").on(t.triggerMessageId),
    index("automation_runs_automation").on(t.projectId, t.automationId, t.id),
    index("automation_runs_conversation_status").on(t.conversationId, t.status),
  ],
);

/**
 * Why one customer message did or did not start or resume a run (docs/api-decisions.md "Automations":
 * GET /messages/{id}/automations), written by automations.evaluate in the transaction that decides.
 * `automations` is each automation as that decision judged it (empty when no automation was judged:
 * handoff, or a waiting run took the message). No personal data: ids, automation keys and names.
 * Messages no evaluation ran for are explained from the
 * facts stored with the message (messages.arrival_routing_mode, arrival_handoff).
 */
export const automationEvaluations = pgTable(
  "automation_evaluations",
  {
    messageId: text("message_id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    outcome: text("outcome", { enum: AUTOMATION_EVALUATION_OUTCOMES }).notNull(),
    runId: text("run_id"),
    reason: text("reason"),
    automations: jsonb("automations").$type<EvaluatedAutomation[]>().notNull(),
    decidedAt: at("decided_at").notNull(),
  },
  // Read by message id only: the primary key is the one index a message's evaluation writes.
);
