import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { withLegacyKeys } from "@/lib/jobs/legacy-keys";
import { advanceRun, continueRun, failRunAfterLastRetry, resumeRun } from "./engine";
import { evaluateMessage } from "./evaluate";
import { AUTOMATION_EVALUATE_JOB, AUTOMATION_RESUME_JOB, AUTOMATION_STEP_JOB } from "./runs";

/**
 * A customer message under FLOWS routing: which run (if any) it starts or answers, then that run's
 * steps until one waits or the run ends. Expiry leaves room for functions' 10 s wall limits and sends.
 */
export const automationEvaluateJob = defineJob({
  name: AUTOMATION_EVALUATE_JOB,
  // Since issue 33 (camelCase payload keys): drop the old key one release later.
  schema: withLegacyKeys(z.object({ messageId: z.string().min(1) }), { message_id: "messageId" }),
  retry: { limit: 5, delay: 1, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 20 },
  async handler(ctx, payload) {
    const runId = await evaluateMessage(ctx, payload.messageId);
    if (runId) await continueRun(ctx, runId);
  },
});

/** A run's steps until one waits or the run ends, when they could not run in the job that decided the run. */
const automationStepJob = defineJob({
  name: AUTOMATION_STEP_JOB,
  // Since issue 33 (camelCase payload keys): drop the old key one release later.
  schema: withLegacyKeys(z.object({ runId: z.string().min(1) }), { run_id: "runId" }),
  retry: { limit: 3, delay: 2, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 20 },
  async handler(ctx, payload, job) {
    try {
      await advanceRun(ctx, payload.runId);
    } catch (error) {
      await failRunAfterLastRetry(ctx, payload.runId, job, error);
      throw error;
    }
  },
});

/** A delay's end or a wait_reply's timeout, due at the run's wait_until (startAfter). */
const automationResumeJob = defineJob({
  name: AUTOMATION_RESUME_JOB,
  // Since issue 33 (camelCase payload keys): drop the old key one release later.
  schema: withLegacyKeys(z.object({ runId: z.string().min(1), stepIndex: z.number().int().min(0) }), { run_id: "runId", step_index: "stepIndex" }),
  retry: { limit: 3, delay: 2, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 10 },
  async handler(ctx, payload, job) {
    try {
      await resumeRun(ctx, payload.runId, payload.stepIndex);
    } catch (error) {
      await failRunAfterLastRetry(ctx, payload.runId, job, error);
      throw error;
    }
  },
});

export const automationJobs = [automationEvaluateJob, automationStepJob, automationResumeJob];
