"use client";

import { useQuery } from "@tanstack/react-query";
import { projectApi } from "./api";
import { automationKeys, type AutomationRun, type StepKind } from "./automations";
import type { Message } from "./inbox";
import { projectQueryKey } from "./query";

/**
 * A run step by step, and why a message did (not) start one (issue 34): `GET /automation-runs/{id}`
 * and `GET /messages/{id}/automations` (config:read; docs/api-decisions.md "Automations").
 */

export interface AutomationRunStep {
  index: number;
  type: StepKind;
  status: string;
  started_at: string;
  ended_at: string | null;
  duration_ms: number | null;
  variables_after: Record<string, unknown> | null;
  message_id: string | null;
  invocation_id: string | null;
  error: { code: string; message: string } | null;
}

/** The run with the steps it went through (older servers leave `steps` out). */
export type AutomationRunDetail = AutomationRun & { steps?: AutomationRunStep[]; trigger_message_id?: string | null };

export type EvaluationOutcome = "started" | "resumed" | "none";
export type EvaluationResult = "ran" | "matched_not_run" | "not_matched" | "skipped";

export interface AutomationConsidered {
  automation_id: string;
  key: string;
  name: string;
  position: number;
  active: boolean;
  trigger_type: string;
  result: EvaluationResult;
  reason: string | null;
  detail: string;
}

export interface AutomationEvaluation {
  object: "automation_evaluation";
  message_id: string;
  conversation_id: string;
  channel_id: string;
  routing_mode: string;
  decided_at: string | null;
  outcome: EvaluationOutcome;
  run_id: string | null;
  reason: string | null;
  automations: AutomationConsidered[];
}

const LIVE_POLL_MS = 1_500;
const ACTIVE = new Set(["RUNNING", "WAITING"]);

/** GET /automation-runs/{id}, followed every 1.5 s while the run is still going (a test run is watched live). */
export function useAutomationRun(projectId: string, runId: string | null) {
  return useQuery({
    queryKey: [...automationKeys.all(projectId), "run", runId ?? ""],
    queryFn: ({ signal }) => projectApi<AutomationRunDetail>(projectId, `/automation-runs/${encodeURIComponent(runId!)}`, { signal }),
    enabled: runId !== null,
    refetchInterval: (query) => (query.state.data && !ACTIVE.has(query.state.data.status) ? false : LIVE_POLL_MS),
  });
}

/**
 * GET /messages/{id}/automations: what the evaluation decided for this inbound message. Asked again
 * every 1.5 s until the decision is recorded (a message just sent is evaluated by a job moments later).
 */
export function useMessageAutomations(projectId: string, messageId: string | null) {
  return useQuery({
    queryKey: [...automationKeys.all(projectId), "evaluation", messageId ?? ""],
    queryFn: ({ signal }) => projectApi<AutomationEvaluation>(projectId, `/messages/${encodeURIComponent(messageId!)}/automations`, { signal }),
    enabled: messageId !== null,
    refetchInterval: (query) => (query.state.data && query.state.data.decided_at === null ? LIVE_POLL_MS : false),
  });
}

/** GET /messages/{id}: the message an explanation is about (its text and when it came). */
export function useMessage(projectId: string, messageId: string | null) {
  return useQuery({
    queryKey: projectQueryKey(projectId, "message", messageId ?? ""),
    queryFn: ({ signal }) => projectApi<Message>(projectId, `/messages/${encodeURIComponent(messageId!)}`, { signal }),
    enabled: messageId !== null,
    staleTime: 60_000,
  });
}
