import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { AUTOMATION_EVALUATE_JOB } from "@/lib/domain/automations/runs";
import { executeRows } from "@/lib/ports/db/bulk";
import { startHarness, type Harness } from "../messages/support";
import { flowsProject, freePairSlot, insertAutomation, textsTo } from "./support";

/**
 * A customer's message under FLOWS routing is stored with its automations.evaluate job in the ingest's
 * transaction; a worker with a free evaluate slot writes that job already taken and runs it once the
 * transaction has committed (job-insert.ts runHere, transaction.ts transactionWithOutcome): no NOTIFY
 * in the ingest's commit, no fetch before the reply.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return check();
}

describe("a keyword's evaluation runs in the worker that stored its message", () => {
  it("is written taken by the ingest's statement, runs after its commit without a fetch, and the reply goes out", async () => {
    const { tester } = await flowsProject(h, async (projectId) => {
      await insertAutomation(h.app, projectId, { key: "price", name: "Price", trigger: { type: "KEYWORD", keywords: ["price"] }, steps: [{ send_reply: { text: "It is 5." } }] });
    });
    await freePairSlot(h, tester);
    // Polling once a minute: the ingest job is woken by its NOTIFY; a NOTIFY-less evaluation must not wait for a poll.
    await h.app.runtime.ports.queue.startWorkers({ pollingIntervalSeconds: 60 });
    const sent = await h.customer({ from: tester, name: "Ana", type: "text", text: "price please" });
    expect(sent.delivered_status).toBe(200);
    expect(await until(async () => textsTo(h, tester).includes("It is 5."))).toBe(true);

    const [stored] = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.platformMessageId, sent.message_id));
    const jobs = await executeRows<{ state: string; taken_at_insert: boolean; retry_count: number }>(
      h.app.db,
      sql`select state::text as state, coalesce(started_on = created_on, false) as taken_at_insert, retry_count from pgboss.job
          where name = ${AUTOMATION_EVALUATE_JOB} and data->>'messageId' = ${stored!.id}`,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ taken_at_insert: true, retry_count: 0 });
    expect(await until(async () => (await executeRows<{ state: string }>(h.app.db, sql`select state::text as state from pgboss.job where name = ${AUTOMATION_EVALUATE_JOB} and data->>'messageId' = ${stored!.id}`))[0]?.state === "completed")).toBe(true);
  });
});
