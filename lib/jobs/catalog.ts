import type { z } from "zod";
import type { JobQueue } from "@/lib/ports/queue";
import type { RegisteredJob } from "./index";

/**
 * Job name → the payload a send of it takes: each registered definition's schema input (z.input),
 * derived from lib/jobs/index.ts's list, so a job is in the catalog exactly when it is registered.
 * Types only: the queue port and the domain's ctx take it without importing a feature module at
 * run time (trigger.dev's worker catalog, documenso's job client).
 */
export type JobCatalog = { [D in RegisteredJob as D["name"]]: z.input<D["schema"]> };

export type JobName = keyof JobCatalog;

export type JobPayload<N extends JobName> = JobCatalog[N];

/** The application's queue: `send(name, data)` takes a catalog name and that job's payload. */
export type TypedJobQueue = JobQueue<JobCatalog>;
