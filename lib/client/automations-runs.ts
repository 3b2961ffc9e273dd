"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { AutomationEvaluation as EvaluationSchema, AutomationRunStep as StepSchema } from "@/lib/api/schemas/automations";
import { projectApi } from "./api";
import { automationKeys, type AutomationRun } from "./automations";
import type { Message } from "./inbox";
import { projectQueryKey } from "./query";

/**
 * A run step by step, and why a message did (not) start one (issue 34): `GET /automation-runs/{id}`
 * and `GET /messages/{id}/automations` (config:read; docs/api-decisions.md "Automations"). The
 * shapes are the API's own (lib/api/schemas/automations.ts), types only.
 */

export type AutomationRunStep = z.infer<typeof StepSchema>;

/** The run with the steps it went through (GET /automation-runs/{id}; the runs list carries them too). */
export type AutomationRunDetail = AutomationRun;

export type AutomationEvaluation = z.infer<typeof EvaluationSchema>;
export type AutomationConsidered = AutomationEvaluation["automations"][number];
export type EvaluationResult = AutomationConsidered["result"];

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
