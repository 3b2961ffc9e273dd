import { performance } from "node:perf_hooks";
import type { z } from "zod";
import { inSpan, tracingOn } from "@/lib/ports/tracing";
import { errorKind } from "@/lib/error-kind";
import { systemCtx, type Services, type SystemCtx } from "@/lib/domain/context";
import type { QueueOptions } from "@/lib/ports/queue";

/**
 * The run a handler is in: pg-boss's job id and how many retries came before it (of retryLimit; the
 * job's definition fills that in when the queue reports none, so `retryCount < retryLimit` always means
 * "another attempt will follow").
 */
export interface JobRun {
  id: string;
  retryCount: number;
  retryLimit: number;
}

/** pg-boss's retry policy for a queue (seconds). A job that throws runs again until `limit` retries. */
interface RetryPolicy {
  limit: number;
  delay: number;
  backoff?: boolean;
  delayMax?: number;
}

/** A job's payload schema: an object, checked on every run (its input is what a send must pass). */
export type JobSchema = z.ZodType<object>;

/**
 * One background job, whole: its queue name, the payload it accepts (checked on every run), its retry,
 * expiry and concurrency policy, and the handler. A module's jobs.ts exports its definitions;
 * lib/jobs/index.ts registers the list, and lib/jobs/catalog.ts reads each one's name and schema
 * input as the type every send of it takes.
 */
export interface JobDefinition<N extends string, S extends JobSchema> {
  name: N;
  schema: S;
  retry: RetryPolicy;
  /** A run still going after this long is presumed dead (its worker died) and is retried. */
  expireInSeconds: number;
  /** Runs in flight in one process (default 10), and per group (a project) across every worker. */
  concurrency?: { local?: number; group?: number };
  handler(ctx: SystemCtx, payload: z.output<S>, job: JobRun): Promise<void>;
}

/** Any job, as the registry and the workers handle them (the payload is checked at run, not typed). */
export type AnyJobDefinition = JobDefinition<string, JobSchema>;

/** Identity, for inference: `handler`'s payload gets the schema's output, the catalog its name and input. */
export function defineJob<N extends string, S extends JobSchema>(definition: JobDefinition<N, S>): JobDefinition<N, S> {
  return definition;
}

/** A payload that does not match its job's schema: it names the job and every field at fault. */
export class JobPayloadError extends errorKind("JobPayloadError") {
  constructor(
    readonly job: string,
    readonly issues: string[],
  ) {
    super(`Job '${job}' got a malformed payload: ${issues.join("; ")}`);
    this.name = "JobPayloadError";
  }
}

export function queueOptionsOf(definition: AnyJobDefinition): QueueOptions {
  const { retry, concurrency } = definition;
  return {
    ...(concurrency?.local !== undefined ? { localConcurrency: concurrency.local } : {}),
    ...(concurrency?.group !== undefined ? { groupConcurrency: concurrency.group } : {}),
    retryLimit: retry.limit,
    retryDelay: retry.delay,
    ...(retry.backoff !== undefined ? { retryBackoff: retry.backoff } : {}),
    ...(retry.delayMax !== undefined ? { retryDelayMax: retry.delayMax } : {}),
    expireInSeconds: definition.expireInSeconds,
  };
}

/**
 * One run: the payload is checked first (a job enqueued by an older release, or by hand, fails here
 * with a clear error instead of deep inside the handler), then the handler runs as the system, at the
 * clock's now. Each run is counted by queue and outcome (svc_job_duration_seconds) and, when tracing is
 * on, is a span named after the queue.
 */
export async function runJob<S extends JobSchema>(definition: JobDefinition<string, S>, services: Services, data: unknown, job: JobRun): Promise<void> {
  const started = performance.now();
  const run = () => runParsed(definition, services, data, job);
  try {
    if (tracingOn()) {
      const attributes = { "messaging.system": "pg-boss", "messaging.destination.name": definition.name, "svc.job.retry_count": job.retryCount };
      await inSpan(`job ${definition.name}`, "consumer", attributes, run);
    } else {
      await run();
    }
    services.ports.metrics.jobRun(definition.name, "completed", (performance.now() - started) / 1000);
  } catch (error) {
    services.ports.metrics.jobRun(definition.name, "failed", (performance.now() - started) / 1000);
    throw error;
  }
}

async function runParsed<S extends JobSchema>(definition: JobDefinition<string, S>, services: Services, data: unknown, job: JobRun): Promise<void> {
  const parsed = definition.schema.safeParse(data);
  if (!parsed.success) {
    throw new JobPayloadError(
      definition.name,
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "(payload)"}: ${issue.message}`),
    );
  }
  // The queue reports retryLimit 0 for a job fetched without its metadata: the defined limit applies,
  // or a handler that decides "last attempt" by it would give every job a single attempt.
  const retryLimit = job.retryLimit > 0 ? job.retryLimit : definition.retry.limit;
  await definition.handler(systemCtx(services), parsed.data, { ...job, retryLimit });
}
