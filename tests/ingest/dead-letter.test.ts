import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { commands } from "@/cli/commands";
import { inboundWebhooks } from "@/lib/db/schema";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { INGEST_RETRY_LIMIT, processInboundWebhook } from "@/lib/domain/ingest/process";
import { newId } from "@/lib/ids";
import type { Seeded } from "../support/app";
import { joinSandbox, startHarness, textA, type Harness } from "./harness";

/**
 * An envelope whose ingest can never succeed (here: a database trigger refuses its message row) is
 * retried up to the job's limit, then parked as a dead letter that stays visible, not retried forever.
 */
const TESTER = "15551110077";
let h: Harness;
let acme: Seeded;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  await joinSandbox(h, acme.projectId, TESTER);
  await h.app.db.execute(sql`create or replace function svc_test_poison() returns trigger language plpgsql as $$
    begin if new.content = 'poison' then raise exception 'poisoned message row'; end if; return new; end $$`);
  await h.app.db.execute(sql`create trigger svc_test_poison before insert on messages for each row execute function svc_test_poison()`);
});
afterAll(async () => {
  await h?.app.db.execute(sql`drop trigger if exists svc_test_poison on messages`).catch(() => {});
  await h?.server.close();
  await h?.app.close();
});

async function storeEnvelope(text: string): Promise<string> {
  const id = newId("inboundWebhook");
  const body = JSON.stringify(textA(SANDBOX_PHONE_NUMBER_ID, TESTER, `wamid.DEAD-${id}`, text));
  await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body, receivedAt: h.app.clock.now() });
  return id;
}

async function envelope(id: string) {
  const [row] = await h.app.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, id));
  return row!;
}

describe("ingest dead letters", () => {
  it("a failing attempt before the last throws (the queue retries) and counts the failure", async () => {
    const id = await storeEnvelope("poison");
    await expect(processInboundWebhook(h.app.systemCtx(), { id }, { retryCount: 0, retryLimit: INGEST_RETRY_LIMIT })).rejects.toThrow(/poisoned message row/);
    const row = await envelope(id);
    expect(row).toMatchObject({ failedAttempts: 1, deadLetteredAt: null, processedAt: null });
    expect(row.error).toContain("poisoned message row");
  });

  it("the last attempt parks the envelope as a dead letter instead of failing again, and the CLI lists it", async () => {
    const id = await storeEnvelope("poison");
    await expect(processInboundWebhook(h.app.systemCtx(), { id }, { retryCount: 0, retryLimit: INGEST_RETRY_LIMIT })).rejects.toThrow();
    await expect(processInboundWebhook(h.app.systemCtx(), { id }, { retryCount: INGEST_RETRY_LIMIT, retryLimit: INGEST_RETRY_LIMIT })).resolves.toBeUndefined();
    const row = await envelope(id);
    expect(row.failedAttempts).toBe(2);
    expect(row.deadLetteredAt).toBeInstanceOf(Date);
    expect(row.processedAt).toBeNull();

    const command = commands.find((c) => c.group === "ingest" && c.name === "dead-letters")!;
    const lines: string[] = [];
    await command.run({}, { db: async () => h.app.db, out: (line) => lines.push(line) });
    expect(lines.join("\n")).toContain(id);
    expect(lines.join("\n")).toContain("poisoned message row");
  });

  it("an envelope that succeeds is never listed", async () => {
    const id = await storeEnvelope("fine");
    await processInboundWebhook(h.app.systemCtx(), { id }, { retryCount: INGEST_RETRY_LIMIT, retryLimit: INGEST_RETRY_LIMIT });
    const row = await envelope(id);
    expect(row).toMatchObject({ failedAttempts: 0, deadLetteredAt: null, error: null });
    expect(row.processedAt).toBeInstanceOf(Date);
  });
});
