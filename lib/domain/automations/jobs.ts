import { z } from "zod";
import { defineJob } from "@/lib/jobs/define";
import { advanceRun, continueRun, failRunAfterLastRetry, resumeRun } from "./engine";
import { evaluateMessage } from "./evaluate";
import { AUTOMATION_EVALUATE_JOB, AUTOMATION_RESUME_JOB, AUTOMATION_STEP_JOB } from "./runs";

/**
 * A customer message under FLOWS routing: which run (if any) it starts or answers, then that run's
 * steps until one waits or the run ends. Expiry leaves room for functions' 10 s wall limits and sends.
 */
export const automationEvaluateJob = defineJob({
  name: AUTOMATION_EVALUATE_JOB,
  schema: z.object({ message_id: z.string().min(1) }),
  retry: { limit: 5, delay: 1, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 20 },
  async handler(ctx, payload) {
    const runId = await evaluateMessage(ctx, payload.message_id);
    if (runId) await continueRun(ctx, runId);
  },
});

/** A run's steps until one waits or the run ends, when they could not run in the job that decided the run. */
export const automationStepJob = defineJob({
  name: AUTOMATION_STEP_JOB,
  schema: z.object({ run_id: z.string().min(1) }),
  retry: { limit: 3, delay: 2, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 20 },
  async handler(ctx, payload, job) {
    try {
      await advanceRun(ctx, payload.run_id);
    } catch (error) {
      await failRunAfterLastRetry(ctx, payload.run_id, job, error);
      throw error;
    }
  },
});

/** A delay's end or a wait_reply's timeout, due at the run's wait_until (startAfter). */
export const automationResumeJob = defineJob({
  name: AUTOMATION_RESUME_JOB,
  schema: z.object({ run_id: z.string().min(1), step_index: z.number().int().min(0) }),
  retry: { limit: 3, delay: 2, backoff: true, delayMax: 60 },
  expireInSeconds: 120,
  concurrency: { local: 10 },
  async handler(ctx, payload, job) {
    try {
      await resumeRun(ctx, payload.run_id, payload.step_index);
    } catch (error) {
      await failRunAfterLastRetry(ctx, payload.run_id, job, error);
      throw error;
    }
  },
});

export const automationJobs = [automationEvaluateJob, automationStepJob, automationResumeJob];
