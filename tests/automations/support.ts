import { asc, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { automationRuns, automations, projects } from "@/lib/db/schema";
import { automationEntrySchema, type AutomationEntry } from "@/lib/domain/automations/definition";
import { AUTOMATION_RESUME_JOB } from "@/lib/domain/automations/runs";
import { newId } from "@/lib/ids";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { PAIR_INTERVAL_SECONDS, pairKey } from "@/lib/domain/messages/pacing";
import type { TestApp } from "../support/app";
import type { Harness } from "../messages/support";
import { testerNumber } from "../messages/send-support";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * Automations are written by config-as-code only; these tests insert the rows it would write (the
 * entry checked by the same schema), in document order.
 */
export async function insertAutomation(app: TestApp, projectId: string, entry: AutomationEntry, position?: number) {
  const parsed = automationEntrySchema.parse(entry);
  const [last] = await app.db
    .select({ position: automations.position })
    .from(automations)
    .where(eq(automations.projectId, projectId))
    .orderBy(sql`${automations.position} desc`)
    .limit(1);
  const now = app.clock.now();
  const [row] = await app.db
    .insert(automations)
    .values({
      id: newId("automation", now.getTime()),
      projectId,
      key: parsed.key,
      name: parsed.name,
      trigger: parsed.trigger,
      steps: parsed.steps,
      active: parsed.active ?? true,
      position: position ?? (last ? last.position + 1 : 0),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

export async function setProjectRouting(app: TestApp, projectId: string, mode: "EXTERNAL" | "FLOWS" | "AGENT") {
  await app.db.update(projects).set({ routingMode: mode }).where(eq(projects.id, projectId));
  forgetAuthenticatedKeys();
}

export async function runsOf(app: TestApp, automationId: string) {
  return app.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId)).orderBy(asc(automationRuns.id));
}

export async function runsInProject(app: TestApp, projectId: string) {
  return app.db.select().from(automationRuns).where(eq(automationRuns.projectId, projectId)).orderBy(asc(automationRuns.id));
}

/** What the simulated customer received from the business (oldest first). */
export function sentTo(h: Harness, tester: string) {
  return h.server.simulator.state.allSent().filter((m) => m.to === tester.replace(/^\+/, ""));
}

export function textsTo(h: Harness, tester: string): string[] {
  return sentTo(h, tester).map((m) => {
    const body = m.body as { text?: { body?: string }; interactive?: { body?: { text?: string } } };
    return body.text?.body ?? body.interactive?.body?.text ?? `<${m.type}>`;
  });
}

/**
 * A delay's end or a wait_reply's timeout is a pg-boss job due at wait_until (wall clock): the test
 * moves its clock past wait_until, then makes the job due now instead of sleeping.
 */
export async function makeResumesDue(app: TestApp) {
  await app.db.execute(sql`update pgboss.job set start_after = now() where name = ${AUTOMATION_RESUME_JOB} and state in ('created', 'retry')`);
}

/** The run's resume jobs still to run (pg-boss rows). */
export async function pendingResumes(app: TestApp, runId: string): Promise<number> {
  const result = await app.db.execute<{ n: number }>(
    sql`select count(*)::int as n from pgboss.job where name = ${AUTOMATION_RESUME_JOB} and state in ('created', 'retry') and data->>'runId' = ${runId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
  return rows[0]!.n;
}

/** A new project routing FLOWS with a fresh tester who joined it (the join is that tester's first message). */
export async function flowsProject(h: Harness, setup?: (projectId: string) => Promise<void>) {
  const seeded = await h.app.seed();
  await setProjectRouting(h.app, seeded.projectId, "FLOWS");
  await setup?.(seeded.projectId);
  const tester = testerNumber();
  await h.join(seeded.projectId, tester, "Ana");
  return { seeded, tester };
}

/**
 * Automated replies are paced like every internal send: one per 6 s per recipient, wall clock, ours
 * and the simulated provider's (tested in tests/messages/send-pacing.test.ts). Each customer turn
 * here frees the pair's slot on both sides first, so the reply it causes goes out at once instead of
 * the test sleeping through the pacing.
 */
export async function freePairSlot(h: Harness, tester: string, channelId: string = SANDBOX_CHANNEL_ID) {
  const digits = tester.replace(/\D/g, "");
  // Exactly free, not below: a refund does not stop at zero, and a slot "owed" would let two replies of
  // one turn pass our limiter at once (the simulator then refuses the second with 131056).
  const key = pairKey("PLATFORM_A", channelId, digits);
  const limiter = h.app.runtime.ports.limiter;
  const refund = () => limiter.refund("strict", key, 1, PAIR_INTERVAL_SECONDS);
  for (let hit = await limiter.hit("strict", key, 1, PAIR_INTERVAL_SECONDS); hit.remaining > 0 || !hit.allowed;) {
    if (!hit.allowed) await refund().then(refund); // this hit and the one held before it
    hit = await limiter.hit("strict", key, 1, PAIR_INTERVAL_SECONDS);
  }
  await refund(); // the hit that found the slot free
  const paced = (h.server.simulator.state as unknown as { lastBusinessAt: Map<string, number> }).lastBusinessAt;
  for (const key of [...paced.keys()]) if (key.endsWith(`\u0000${digits}`)) paced.delete(key);
}

/** The customer writes; every job it causes runs (replies reach the simulator). */
export async function say(h: Harness, tester: string, input: string | Record<string, unknown>, channelId?: string) {
  await freePairSlot(h, tester, channelId);
  // The profile name travels with every message (and renames the contact): the tester stays "Ana".
  const sent = await h.customer(typeof input === "string" ? { from: tester, name: "Ana", type: "text", text: input } : { from: tester, name: "Ana", ...input });
  expect(sent.delivered_status).toBe(200);
  await h.settle(20);
  return sent;
}

export async function conversationOf(app: TestApp, key: string, tester: string): Promise<string> {
  const list = await app.call("GET", "/conversations?limit=100", { key });
  const found = (list.body.data as { id: string; phone: string | null }[]).find((c) => c.phone?.replace(/\D/g, "") === tester);
  if (!found) throw new Error(`no conversation with ${tester}`);
  return found.id;
}
