import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { inboundWebhooks, messages } from "@/lib/db/schema";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { INGEST_RETRY_LIMIT, processInboundWebhook, STATUS_RETRY_JOB } from "@/lib/domain/ingest/process";
import { newId } from "@/lib/ids";
import type { Seeded } from "../support/app";
import { executedDuring } from "../support/statements";
import { joinSandbox, startHarness, storeSentMessages, storeStatusEnvelope, textA, type Harness } from "./harness";

/**
 * An envelope of one item is marked processed by the item's own statement (SystemCtx.withItemWrite):
 * a status's move as much as a customer message's insert. Where the item writes nothing of its own (a
 * status that cannot move, a message the provider sent before), the envelope's update marks it. An
 * envelope of one run of statuses is marked by the run's moves, or in the run's transaction; never by
 * one item's statement when its items are applied one by one.
 */
let h: Harness;
let acme: Seeded;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
});
afterAll(async () => {
  await h?.app.db.execute(sql`drop trigger if exists svc_test_mark_refuse on messages`).catch(() => {});
  await h?.app.db.execute(sql`drop trigger if exists svc_test_mark_job_once on pgboss.job`).catch(() => {});
  await h?.close();
});

async function retryJobsFor(providerId: string): Promise<number> {
  const result = (await h.app.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${STATUS_RETRY_JOB} and data->'event'->>'platform_message_id' = ${providerId}`,
  )) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
  return Number(rows[0]!.n);
}

const statusOf = async (id: string) => (await h.app.db.select({ status: messages.status }).from(messages).where(eq(messages.id, id)))[0]!.status;

async function storeEnvelope(body: Record<string, unknown>): Promise<string> {
  const id = newId("inboundWebhook");
  await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body: JSON.stringify(body), receivedAt: h.app.clock.now() });
  return id;
}

/** Processes the envelope; returns the statements that wrote inbound_webhooks, and the envelope after. */
async function process(id: string) {
  const { executed } = await executedDuring(h.app.db, () => processInboundWebhook(h.app.systemCtx(), { id }));
  const [envelope] = await h.app.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, id));
  return { marking: executed.filter((text) => text.includes(`update "inbound_webhooks"`)), envelope: envelope! };
}

describe("an envelope of one item", () => {
  it("one status: the move, its event and the envelope's mark are one statement", async () => {
    const [sent] = await storeSentMessages(h, acme.projectId, ["mark me"]);
    const { marking, envelope } = await process(await storeStatusEnvelope(h, [[sent!.pid, "delivered"]]));
    expect(marking).toHaveLength(1);
    expect(marking[0]).toMatch(/^with "moved" as \(update "messages"/);
    expect(envelope).toMatchObject({ error: null });
    expect(envelope.processedAt).toBeInstanceOf(Date);
    const [row] = await h.app.db.select().from(messages).where(eq(messages.id, sent!.id));
    expect(row!.status).toBe("delivered");
  });

  it("a status that cannot move (a late delivered after read) is marked by the envelope's own update", async () => {
    const [sent] = await storeSentMessages(h, acme.projectId, ["already read"]);
    await h.app.db.update(messages).set({ status: "read" }).where(eq(messages.id, sent!.id));
    const { marking, envelope } = await process(await storeStatusEnvelope(h, [[sent!.pid, "delivered"]]));
    expect(marking).toHaveLength(1);
    expect(marking[0]).toMatch(/^update "inbound_webhooks"/);
    expect(envelope.processedAt).toBeInstanceOf(Date);
  });

  it("a customer message is marked by the message's statement; the provider's repeat, found by the first read, by the update", async () => {
    const tester = "15557770101";
    await joinSandbox(h, acme.projectId, tester);
    const providerId = `wamid.MARK-${newId("message")}`;
    const envelope = () => storeEnvelope(textA(SANDBOX_PHONE_NUMBER_ID, tester, providerId, "hello twice"));
    const first = await process(await envelope());
    expect(first.marking).toHaveLength(1);
    expect(first.marking[0]).toMatch(/^with "inserted" as \(insert into "messages"/);
    expect(first.envelope.processedAt).toBeInstanceOf(Date);
    const repeat = await process(await envelope());
    expect(repeat.marking).toHaveLength(1);
    expect(repeat.marking[0]).toMatch(/^update "inbound_webhooks"/);
    expect(repeat.envelope.processedAt).toBeInstanceOf(Date);
    expect(await h.app.db.select().from(messages).where(eq(messages.platformMessageId, providerId))).toHaveLength(1);
  });
});

describe("an envelope of one run of statuses", () => {
  it("the run's moves, their events and the envelope's mark are one statement", async () => {
    const [one, two] = await storeSentMessages(h, acme.projectId, ["run one", "run two"]);
    const { marking, envelope } = await process(
      await storeStatusEnvelope(h, [
        [one!.pid, "delivered"],
        [two!.pid, "delivered"],
      ]),
    );
    expect(marking).toHaveLength(1);
    expect(marking[0]).toMatch(/^with "v" as \(select \* from jsonb_to_recordset/);
    expect(marking[0]).toContain(`"envelope_processed" as (update "inbound_webhooks"`);
    expect(envelope).toMatchObject({ error: null });
    expect(envelope.processedAt).toBeInstanceOf(Date);
    expect([await statusOf(one!.id), await statusOf(two!.id)]).toEqual(["delivered", "delivered"]);
  });

  it("a run with nothing to move yet is marked in its transaction, beside its retry jobs", async () => {
    const unknown = [`wamid.MARK-UNKNOWN-${newId("message")}`, `wamid.MARK-UNKNOWN-${newId("message")}`];
    const { marking, envelope } = await process(
      await storeStatusEnvelope(
        h,
        unknown.map((pid) => [pid, "delivered"]),
      ),
    );
    expect(marking).toHaveLength(1);
    expect(marking[0]).toMatch(/^update "inbound_webhooks"/);
    expect(envelope.processedAt).toBeInstanceOf(Date);
    expect([await retryJobsFor(unknown[0]!), await retryJobsFor(unknown[1]!)]).toEqual([1, 1]);
  });

  it("a run applied one by one after its transaction failed is marked once every item is, by the envelope's update", async () => {
    // The first retry job inserted fails (a sequence is not rolled back, so the second one passes): the
    // run's transaction, whose moves had written the mark, rolls back, and the statuses go one by one.
    await h.app.db.execute(sql`create sequence if not exists svc_test_mark_job_once`);
    await h.app.db.execute(sql`create or replace function svc_test_mark_job_once() returns trigger language plpgsql as $$
      begin if nextval('svc_test_mark_job_once') = 1 then raise exception 'first retry job refused'; end if; return new; end $$`);
    await h.app.db.execute(
      sql.raw(
        `create trigger svc_test_mark_job_once before insert on pgboss.job for each row when (new.name = '${STATUS_RETRY_JOB}') execute function svc_test_mark_job_once()`,
      ),
    );
    try {
      const [known] = await storeSentMessages(h, acme.projectId, ["fallback known"]);
      const unknown = `wamid.MARK-LATER-${newId("message")}`;
      const { marking, envelope } = await process(
        await storeStatusEnvelope(h, [
          [known!.pid, "delivered"],
          [unknown, "delivered"],
        ]),
      );
      // The rolled-back moves with the mark, then the envelope's own update: the mark did not count.
      expect(marking).toHaveLength(2);
      expect(marking[0]).toContain(`"envelope_processed" as (update "inbound_webhooks"`);
      expect(marking[1]).toMatch(/^update "inbound_webhooks"/);
      expect(envelope).toMatchObject({ error: null });
      expect(envelope.processedAt).toBeInstanceOf(Date);
      expect(await statusOf(known!.id)).toBe("delivered");
      expect(await retryJobsFor(unknown)).toBe(1);
    } finally {
      await h.app.db.execute(sql`drop trigger if exists svc_test_mark_job_once on pgboss.job`);
    }
  });

  it("when one item of the run fails, the others are applied and the envelope is left unprocessed with the error", async () => {
    await h.app.db.execute(sql`create or replace function svc_test_mark_refuse() returns trigger language plpgsql as $$
      begin if new.status = 'read' and new.content = 'mark refuse' then raise exception 'refused on purpose'; end if; return new; end $$`);
    await h.app.db.execute(sql`create trigger svc_test_mark_refuse before update on messages for each row execute function svc_test_mark_refuse()`);
    try {
      const [fine, refused] = await storeSentMessages(h, acme.projectId, ["mark fine", "mark refuse"]);
      const id = await storeStatusEnvelope(h, [
        [fine!.pid, "read"],
        [refused!.pid, "read"],
      ]);
      await expect(processInboundWebhook(h.app.systemCtx(), { id }, { retryCount: 0, retryLimit: INGEST_RETRY_LIMIT })).rejects.toThrow(/refused on purpose/);
      const [envelope] = await h.app.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, id));
      // The first item's own statement must not have marked it: a retry has to apply the one that failed.
      expect(envelope!.processedAt).toBeNull();
      expect(envelope!.error).toContain("refused on purpose");
      expect([await statusOf(fine!.id), await statusOf(refused!.id)]).toEqual(["read", "sent"]);
    } finally {
      await h.app.db.execute(sql`drop trigger if exists svc_test_mark_refuse on messages`);
    }
  });
});
