/**
 * Growth phase helper (bench/growth.ts), a process of its own with the app's environment (the same
 * runtime as the web and worker processes):
 *
 *   node --import tsx bench/growth-probe.ts explain '<ExplainInput json>'
 *     calls each list's domain function (the one its route calls, with the same query) on a database
 *     handle whose drizzle logger records every statement and its parameters, then runs
 *     EXPLAIN (FORMAT JSON) on each recorded statement: the plans are those of the SQL the list issues.
 *   node --import tsx bench/growth-probe.ts sweep '<SweepInput json>'
 *     times one pass of each retention sweep over a day's expired rows (the job's own function, with
 *     `now` set so that exactly the oldest seeded day is past the retention).
 *
 * Prints one JSON line, prefixed "growth-probe: ".
 */
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { eq } from "drizzle-orm";
import * as schema from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { DRIZZLE_CONFIG } from "@/lib/ports/db/open";
import type { Ctx } from "@/lib/domain/context";

export interface ExplainInput {
  projectId: string;
  /** name → the list to run (each one the route's domain function with the route's query). */
  lists: ExplainList[];
}
export type ExplainList =
  | { name: string; kind: "conversations"; query: { limit: number; starting_after?: string; q?: string } }
  | { name: string; kind: "history"; conversationId: string; query: { limit: number } }
  | { name: string; kind: "deliveries"; query: { limit: number; event?: "message.received" | "message.status"; status?: "failed" | "succeeded" } }
  | { name: string; kind: "invocations"; functionId: string; query: { limit: number } }
  | { name: string; kind: "audit"; query: { limit: number } };

export interface StatementPlan {
  sql: string;
  /** Node types anywhere in the plan, e.g. "Index Scan on conversations using conversations_project_id". */
  nodes: string[];
  seqScans: string[];
  plan: unknown;
}
export interface ListPlans {
  name: string;
  statements: StatementPlan[];
  /** Every statement's plan reads the large tables through an index (no Seq Scan on one of them). */
  indexed: boolean;
}

export interface SweepInput {
  /** The oldest seeded row's time (epoch ms). */
  t0: number;
  projectId: string;
}
export interface SweepResult {
  name: string;
  /** What is kept: how long, or until which deadline. */
  retention: string;
  /** Rows the pass deleted (or marked): the oldest seeded day. */
  rows: number;
  seconds: number;
  /** How often the job runs, and how many rows one run handles at most (null: until none are left). */
  everyMinutes: number;
  perRun: number | null;
  batch: number;
}

/** The tables that grow: a Seq Scan on one of them fails the row. */
const LARGE = new Set([
  "messages",
  "conversations",
  "contacts",
  "events",
  "webhook_deliveries",
  "webhook_attempts",
  "function_invocations",
  "audit_events",
  "media",
]);

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };
function walk(node: PlanNode, out: string[], seq: string[]): void {
  const on = node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
  const using = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
  out.push(`${node["Node Type"]}${on}${using}`);
  if (node["Node Type"] === "Seq Scan" && node["Relation Name"] && LARGE.has(node["Relation Name"])) seq.push(node["Relation Name"]);
  for (const child of node.Plans ?? []) walk(child, out, seq);
}

async function explain(url: string, input: ExplainInput): Promise<ListPlans[]> {
  const { getRuntime, servicesOf } = await import("@/lib/server/runtime");
  const { listConversations, listConversationMessages } = await import("@/lib/domain/conversations");
  const { listDeliveries } = await import("@/lib/domain/webhooks");
  const { listInvocations } = await import("@/lib/domain/functions/invocations");
  const { listAuditEvents } = await import("@/lib/domain/audit/read");
  const runtime = await getRuntime();
  let recorded: { sql: string; params: unknown[] }[] = [];
  const client = postgres(url, { max: 1, onnotice: () => {} });
  const db = drizzle(client, {
    ...DRIZZLE_CONFIG,
    logger: { logQuery: (sql, params) => void recorded.push({ sql, params }) },
  }) as unknown as Db;
  const [project] = await db.select().from(schema.projects).where(eq(schema.projects.id, input.projectId));
  const [org] = await db.select().from(schema.organizations).where(eq(schema.organizations.id, project!.organizationId));
  const [plan] = await db.select().from(schema.plans).where(eq(schema.plans.id, org!.planId));
  const ctx: Ctx = {
    ...servicesOf(runtime),
    db,
    org: org!,
    project: project!,
    plan: plan!,
    actor: { type: "api_key", id: "key_growth", name: null, prefix: "svc_live_", display: "svc_live_…grow", scopes: ["*"] },
    now: new Date(),
  };
  const out: ListPlans[] = [];
  for (const list of input.lists) {
    recorded = [];
    if (list.kind === "conversations") await listConversations(ctx, list.query);
    else if (list.kind === "history") await listConversationMessages(ctx, list.conversationId, list.query);
    else if (list.kind === "deliveries") await listDeliveries(ctx, list.query, list.query);
    else if (list.kind === "invocations") await listInvocations(ctx, list.functionId, list.query);
    else await listAuditEvents(ctx, list.query);
    const statements: StatementPlan[] = [];
    for (const { sql, params } of recorded) {
      const [row] = await client.unsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(`explain (format json) ${sql}`, params as never[]);
      const nodes: string[] = [];
      const seqScans: string[] = [];
      const plan = row!["QUERY PLAN"][0].Plan;
      walk(plan, nodes, seqScans);
      statements.push({ sql, nodes, seqScans, plan });
    }
    out.push({ name: list.name, statements, indexed: statements.every((s) => s.seqScans.length === 0) });
  }
  await client.end({ timeout: 5 });
  await runtime.close();
  return out;
}

async function sweep(input: SweepInput): Promise<SweepResult[]> {
  const { getRuntime, servicesOf } = await import("@/lib/server/runtime");
  const { systemCtx } = await import("@/lib/domain/context");
  const { expireInvocations } = await import("@/lib/domain/functions/invocations");
  const { expireAuditEvents, AUDIT_RETENTION_MS } = await import("@/lib/domain/audit/retention");
  const { expireMedia } = await import("@/lib/domain/media/cache");
  const { expireDispatches } = await import("@/lib/domain/flows/expiry");
  const runtime = await getRuntime();
  const services = servicesOf(runtime);
  const DAY = 24 * 3600_000;
  const timed = async (run: () => Promise<number>) => {
    const started = performance.now();
    const rows = await run();
    return { rows, seconds: Math.round((performance.now() - started) / 100) / 10 };
  };
  const results: SweepResult[] = [];
  // The oldest day of invocations is 8 days old at t0 + 8 d: one day past the 7-day retention.
  const inv = await timed(() => expireInvocations(systemCtx(services, new Date(input.t0 + 8 * DAY))));
  results.push({ name: "functions.expire-invocations", retention: "7 days", ...inv, everyMinutes: 60, perRun: null, batch: 1000 });
  const aud = await timed(() => expireAuditEvents(systemCtx(services, new Date(input.t0 + AUDIT_RETENTION_MS + DAY))));
  results.push({ name: "audit.expire", retention: "90 days", ...aud, everyMinutes: 24 * 60, perRun: null, batch: 1000 });
  // Media and flow dispatches: the rows bench/growth.ts seeded for the sweep (a day's volume, past the deadline).
  const now = new Date();
  let mediaRows = 0;
  const started = performance.now();
  for (;;) {
    const n = await expireMedia(systemCtx(services, now));
    mediaRows += n;
    if (n === 0) break;
  }
  results.push({
    name: "media.expire",
    retention: "the plan's media retention (expires_at)",
    rows: mediaRows,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    everyMinutes: 5,
    perRun: 500,
    batch: 500,
  });
  const fd = await timed(() => expireDispatches(systemCtx(services, now)));
  results.push({ name: "flows.expire-dispatches", retention: "until expires_at (SENT → EXPIRED)", ...fd, everyMinutes: 10, perRun: null, batch: 1000 });
  await runtime.close();
  return results;
}

const [mode, raw] = process.argv.slice(2);
const url = process.env.DATABASE_URL;
if (!url || !raw || (mode !== "explain" && mode !== "sweep")) throw new Error("usage: growth-probe.ts explain|sweep '<json>' (DATABASE_URL set)");
const result = mode === "explain" ? await explain(url, JSON.parse(raw) as ExplainInput) : await sweep(JSON.parse(raw) as SweepInput);
console.log(`growth-probe: ${JSON.stringify(result)}`);
process.exit(0);
