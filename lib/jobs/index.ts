import type { Services } from "@/lib/domain/context";
import { messageJobs } from "@/lib/domain/messages/jobs";
import { ingestJobs } from "@/lib/domain/ingest/jobs";
import { webhookJobs } from "@/lib/domain/webhooks/jobs";
import { mediaJobs } from "@/lib/domain/media/jobs";
import { MEDIA_EXPIRE_JOB } from "@/lib/domain/media/cache";
import { flowJobs } from "@/lib/domain/flows/jobs";
import { FLOW_EXPIRE_JOB } from "@/lib/domain/flows/expiry";
import { functionJobs } from "@/lib/domain/functions/jobs";
import { FUNCTION_INVOCATIONS_EXPIRE_JOB } from "@/lib/domain/functions/invocations";
import { automationJobs } from "@/lib/domain/automations/jobs";
import { agentJobs } from "@/lib/domain/agents/jobs";
import { agentRespondJobs } from "@/lib/domain/agents/respond-job";
import { contactJobs } from "@/lib/domain/contacts/erase-files";
import { broadcastJobs } from "@/lib/domain/broadcasts/jobs";
import { auditJobs } from "@/lib/domain/audit/jobs";
import { AUDIT_EXPIRE_JOB } from "@/lib/domain/audit/retention";
import { queueOptionsOf, runJob, type AnyJobDefinition } from "./define";
import type { TypedJobQueue } from "./catalog";

/**
 * Every background job: each module's definitions (name, payload schema, retry policy, handler). Its
 * precise type is the job catalog (catalog.ts): a job registered here is one a send may name.
 */
const DEFINITIONS = [
  ...messageJobs,
  ...ingestJobs,
  ...webhookJobs,
  ...mediaJobs,
  ...flowJobs,
  ...functionJobs,
  ...automationJobs,
  ...agentJobs,
  ...agentRespondJobs,
  ...contactJobs,
  ...broadcastJobs,
  ...auditJobs,
];

/** The union of every registered definition, each with its literal name and its schema's types. */
export type RegisteredJob = (typeof DEFINITIONS)[number];

export const JOBS: readonly AnyJobDefinition[] = DEFINITIONS;

/** Periodic work, started with the workers: one media.expire, flows.expire-dispatches, functions.expire-invocations and audit.expire chain each however many processes start, each run scheduling the next. */
export async function scheduleMaintenance(queue: TypedJobQueue): Promise<void> {
  await queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: MEDIA_EXPIRE_JOB });
  await queue.sendOnce(FLOW_EXPIRE_JOB, {}, { singletonKey: FLOW_EXPIRE_JOB });
  await queue.sendOnce(FUNCTION_INVOCATIONS_EXPIRE_JOB, {}, { singletonKey: FUNCTION_INVOCATIONS_EXPIRE_JOB });
  await queue.sendOnce(AUDIT_EXPIRE_JOB, {}, { singletonKey: AUDIT_EXPIRE_JOB });
}

/** Registers every job once per process; each run gets a system ctx over these services. */
export function registerJobs(queue: TypedJobQueue, services: Services): void {
  for (const job of JOBS) queue.define(job.name, queueOptionsOf(job), (data, run) => runJob(job, services, data, run));
}
