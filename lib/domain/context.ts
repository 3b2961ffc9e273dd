import type { Db } from "@/lib/ports/db/types";
import type { Clock } from "@/lib/ports/clock";
import type { TypedJobQueue } from "@/lib/jobs/catalog";
import type { Limiter } from "@/lib/ports/limiter";
import type { ObjectStorage } from "@/lib/ports/storage";
import type { ProviderPort } from "@/lib/ports/provider/types";
import type { SandboxPort } from "@/lib/ports/sandbox/types";
import type { MetricsPort } from "@/lib/ports/metrics";
import type { BusPort } from "@/lib/ports/bus";
import type { organizations, plans, projects } from "@/lib/db/schema";
import type { SQL } from "drizzle-orm";
import type { TypedQueryBuilder } from "drizzle-orm/query-builders/query-builder";
import type { AttemptScope } from "@/lib/domain/webhooks/attempt";

export type OrganizationRow = typeof organizations.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;

/** Who is acting: an API key (public API), an operator (dashboard) or the system (jobs, bootstrap). */
export type Actor =
  | { type: "api_key"; id: string; name: string | null; prefix: string; display: string; scopes: string[] }
  | { type: "user"; id: string; role: string }
  | { type: "system" };

export const SYSTEM_ACTOR: Actor = { type: "system" };

/** The outside things a verb may use. One set per process, chosen in the composition root (lib/server/runtime.ts). */
export interface Ports {
  queue: TypedJobQueue;
  limiter: Limiter;
  storage: ObjectStorage;
  clock: Clock;
  provider: ProviderPort;
  /** Hosted functions' user code: QuickJS on worker threads (lib/ports/sandbox). */
  sandbox: SandboxPort;
  /** The process's Prometheus series (lib/ports/metrics): outcomes worth watching, never tenant data in a label. */
  metrics: MetricsPort;
  /** Short messages between this deployment's processes (lib/ports/bus): the inbox's live updates. */
  bus: BusPort;
}

/**
 * The configuration verbs read, resolved once from the environment by the composition root (README
 * "Environment variables"), so no domain module reads process.env and a test sets each value directly.
 */
export interface Settings {
  /** Base of the links we hand out (signed media URLs, invitations): SVC_PUBLIC_URL. */
  publicUrl: string;
  /** The provider Graph API base (real or the simulator): media lookups go there. */
  graphUrl: string;
  /** Testers per project on the shared sandbox: SVC_SANDBOX_PARTICIPANT_CAP (default 5). */
  sandboxParticipantCap: number;
  /** The shared sandbox number's provider token: SVC_SANDBOX_ACCESS_TOKEN, or the simulator's. */
  sandboxAccessToken: string;
  /**
   * Whether customer-given URLs (function fetches, ...) may reach private networks:
   * SVC_ALLOW_PRIVATE_NETWORK; unset = the net port's default (allowed outside production).
   */
  allowPrivateNetwork?: boolean | undefined;
  /** Reverse proxies whose forwarding headers name the client: SVC_TRUSTED_PROXIES (lib/api/client-ip.ts). */
  trustedProxies: readonly string[];
}

/** Database, ports and settings: what the composition root (or a test) builds once and every ctx carries. */
export interface Services {
  db: Db;
  ports: Ports;
  settings: Settings;
}

/**
 * What a verb that acts before (or across) a project gets: jobs (a `system` actor) and ingest, which
 * finds the project of each provider item itself. `db` may be a transaction: a verb that runs inside
 * its caller's transaction gets `{ ...ctx, db: tx }`.
 */
export interface SystemCtx extends Services {
  actor: Actor;
  now: Date;
  /**
   * The deliveries this process attempts itself once the caller's transaction commits (a job's
   * transaction that opened one with withDirectDeliveries, lib/domain/webhooks/direct.ts); absent, every
   * delivery gets its queue job.
   */
  direct?: DirectDeliveryBatch | null;
  /**
   * A write that belongs with the one provider item this ctx applies, as a CTE of the item's own
   * statement (a customer message's insert, a status's move): it commits with the item and costs no
   * round trip (the ingest's envelope marked processed, lib/domain/ingest/process.ts). Absent, the
   * item's statement writes nothing else.
   */
  withItemWrite?: ItemWriteAlongside | null;
}

/** See SystemCtx.withItemWrite. */
export interface ItemWriteAlongside {
  /** `, "name" as (…)`: written whenever the statement runs, whatever else it wrote; it reads none of its CTEs. */
  cte: SQL;
  /** Its placeholders' values. */
  values: Record<string, unknown>;
  /** Set once the item's statement ran, so the CTE did (it commits with the caller's transaction, if any). */
  written: boolean;
}

/** See SystemCtx.direct; implemented by lib/domain/webhooks/direct.ts. */
export interface DirectDeliveryBatch {
  /** A slot for one delivery of the project: the end of its lease, or null (no slot free: it gets a job). */
  reserve(projectId: string, now: Date): Date | null;
  /**
   * After the write a reservation was for: the pending delivery it wrote (with what its attempt reads,
   * when the write read it too), or null (none: the slot is freed).
   */
  settle(projectId: string, deliveryId: string | null, scope?: AttemptScope): void;
}

/**
 * What every project verb gets. Every query a verb makes filters by ctx.project (or ctx.org), so one
 * project can never read or change another's rows.
 */
export interface Ctx extends SystemCtx {
  org: OrganizationRow;
  project: ProjectRow;
  plan: PlanRow;
  /** The calling client's address, for the audit log (lib/api/client-ip.ts); absent outside a request. */
  ip?: string | null;
  /**
   * The audit actions recorded while serving one request (recordAudit appends): the route wrapper
   * checks them against the route's declared actions (lib/api/audit-declaration.ts). Absent outside a request.
   */
  audited?: string[];
}

/** A job's (or a script's) ctx: the system acting at `now`. */
export function systemCtx(services: Services, now: Date = services.ports.clock.now()): SystemCtx {
  return { db: services.db, ports: services.ports, settings: services.settings, actor: SYSTEM_ACTOR, now };
}

/**
 * The request's idempotency record, handed to a verb whose answer is the route's answer and is known
 * before its one write statement (POST /messages): the verb stores the answer in that statement, as the
 * CTE `cte` with the placeholders `values(answer)` gives, and sets `stored`, so the route wrapper
 * (lib/api/idempotency.ts, which owns the record) does not store it again in a statement of its own.
 */
export interface AnswerRecord {
  /** A data-modifying CTE, comma first, over the placeholders `recordId` and `recordBody`. */
  readonly cte: SQL;
  values(answer: unknown): { recordId: string; recordBody: string };
  stored: boolean;
}

/**
 * The request's Idempotency-Key claim, for a verb that runs it inside its first read (POST /messages):
 * one round trip fewer than the route wrapper's own claim statement. The read runs `insert(db)` as a
 * CTE over `values` and selects whether it inserted; then the verb calls `taken()` (the wrapper
 * records the claim and counts the monthly quota, which may refuse with 429) or `notTaken()`, which
 * throws: the wrapper then answers as it does without the fold (the stored answer, 409 in progress,
 * 422 reused, or a claim taken over from a request that died).
 */
export interface FoldedClaim {
  insert(db: Db): TypedQueryBuilder<{ id: unknown }>;
  readonly values: Record<string, unknown>;
  taken(): Promise<void>;
  notTaken(): never;
}
