import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { events, inboundWebhooks, messages } from "@/lib/db/schema";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { INGEST_RETRY_LIMIT, processInboundWebhook, STATUS_RETRY_JOB } from "@/lib/domain/ingest/process";
import { newId } from "@/lib/ids";
import { normalizeWebhook } from "@/lib/domain/ingest/normalize";
import { applyStatusSet } from "@/lib/domain/ingest/status-set";
import type { Seeded } from "../support/app";
import { envelopeA, startHarness, storeSentMessages, storeStatusEnvelope, type Harness } from "./harness";

/**
 * An envelope of many statuses (the provider batches them) is applied in one transaction; when one
 * of them fails, the others are still applied one by one and the failure is recorded on the envelope.
 */
let h: Harness;
let acme: Seeded;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  await h.app.db.execute(sql`create or replace function svc_test_refuse_read() returns trigger language plpgsql as $$
    begin if new.status = 'read' and new.content = 'refuse read' then raise exception 'refused read'; end if; return new; end $$`);
  await h.app.db.execute(sql`create trigger svc_test_refuse_read before update on messages for each row execute function svc_test_refuse_read()`);
});
afterAll(async () => {
  await h?.app.db.execute(sql`drop trigger if exists svc_test_refuse_read on messages`).catch(() => {});
  await h?.close();
});

const sentMessages = (contents: string[]) => storeSentMessages(h, acme.projectId, contents);
const mixedEnvelope = (pairs: [string, string][]) => storeStatusEnvelope(h, pairs);
const statusEnvelope = (pids: string[], status: string) => mixedEnvelope(pids.map((pid) => [pid, status]));

const statusOf = async (ids: string[]) =>
  new Map((await h.app.db.select({ id: messages.id, status: messages.status }).from(messages).where(inArray(messages.id, ids))).map((r) => [r.id, r.status]));

describe("an envelope of statuses", () => {
  it("moves every message and emits one message.status each", async () => {
    const rows = await sentMessages(["a", "b", "c", "d"]);
    const id = await statusEnvelope(
      rows.map((r) => r.pid),
      "read",
    );
    await processInboundWebhook(h.app.systemCtx(), { id });
    const statuses = await statusOf(rows.map((r) => r.id));
    expect([...statuses.values()]).toEqual(["read", "read", "read", "read"]);
    const emitted = await h.app.db.select().from(events).where(eq(events.type, "message.status"));
    expect(rows.every((r) => emitted.filter((e) => (e.payload as { message_id: string }).message_id === r.id).length === 1)).toBe(true);
  });

  it("applies each message's moves in order, ignores backward and repeated ones, and leaves unknown ids to the retry job", async () => {
    const [twice, backward, repeated] = await sentMessages(["twice", "backward", "repeated"]);
    await h.app.db.update(messages).set({ status: "read" }).where(eq(messages.id, backward!.id));
    const unknown = `wamid.RUN-UNKNOWN-${newId("message")}`;
    const id = await mixedEnvelope([
      [twice!.pid, "delivered"],
      [backward!.pid, "delivered"],
      [repeated!.pid, "delivered"],
      [unknown, "delivered"],
      [twice!.pid, "read"],
      [repeated!.pid, "delivered"],
    ]);
    await processInboundWebhook(h.app.systemCtx(), { id });
    const statuses = await statusOf([twice!.id, backward!.id, repeated!.id]);
    expect(Object.fromEntries(statuses)).toEqual({ [twice!.id]: "read", [backward!.id]: "read", [repeated!.id]: "delivered" });
    const emitted = await h.app.db.select().from(events).where(eq(events.type, "message.status"));
    const movesOf = (messageId: string) =>
      emitted
        .filter((e) => (e.payload as { message_id: string }).message_id === messageId)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((e) => (e.payload as { status: string }).status);
    expect(movesOf(twice!.id)).toEqual(["delivered", "read"]);
    expect(movesOf(backward!.id)).toEqual([]);
    expect(movesOf(repeated!.id)).toEqual(["delivered"]);
    const result = (await h.app.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = ${STATUS_RETRY_JOB} and data->'event'->>'platform_message_id' = ${unknown}`,
    )) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it("is applied as a set (not one by one): the set path accepts a run and hands back only the unknown ids", async () => {
    const [one, two] = await sentMessages(["set one", "set two"]);
    const unknown = `wamid.RUN-UNKNOWN-${newId("message")}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const run = normalizeWebhook(
      "PLATFORM_A",
      envelopeA(SANDBOX_PHONE_NUMBER_ID, {
        statuses: [one!.pid, unknown, two!.pid].map((id) => ({ id, status: "delivered", timestamp: ts, recipient_id: "15551110088" })),
      }),
    );
    const ctx = h.app.systemCtx();
    const outcome = await ctx.db.transaction((tx) => applyStatusSet({ ...ctx, db: tx }, run));
    expect(outcome?.pending.map((event) => event.platform_message_id)).toEqual([unknown]);
    expect(Object.fromEntries(await statusOf([one!.id, two!.id]))).toEqual({ [one!.id]: "delivered", [two!.id]: "delivered" });
  });

  it("a run meeting messages another run moves meanwhile stays on the set path: forward only, one event per status", async () => {
    const rows = await sentMessages(["race one", "race two", "race three"]);
    const ts = String(Math.floor(Date.now() / 1000));
    const runOf = (status: string) =>
      normalizeWebhook(
        "PLATFORM_A",
        envelopeA(SANDBOX_PHONE_NUMBER_ID, { statuses: rows.map((r) => ({ id: r.pid, status, timestamp: ts, recipient_id: "15551110088" })) }),
      );
    const ctx = h.app.systemCtx();
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstApplied!: () => void;
    const applied = new Promise<void>((resolve) => (firstApplied = resolve));
    // The "read" run holds its row locks open while the "delivered" run reads the messages (still
    // "sent" for it on Postgres) and waits on them; then the first commits.
    const first = ctx.db.transaction(async (tx) => {
      const outcome = await applyStatusSet({ ...ctx, db: tx }, runOf("read"));
      firstApplied();
      await held;
      return outcome;
    });
    await applied;
    const second = ctx.db.transaction((tx) => applyStatusSet({ ...ctx, db: tx }, runOf("delivered")));
    await new Promise((r) => setTimeout(r, 200));
    releaseFirst();
    expect(await first).toEqual({ pending: [] });
    // Not declined (null would send the whole run down the one-by-one path).
    expect(await second).toEqual({ pending: [] });
    expect(Object.fromEntries(await statusOf(rows.map((r) => r.id)))).toEqual(Object.fromEntries(rows.map((r) => [r.id, "read"])));
    const emitted = await h.app.db
      .select({ type: events.type, payload: events.payload })
      .from(events)
      .where(
        inArray(
          sql`${events.payload}->>'message_id'`,
          rows.map((r) => r.id),
        ),
      );
    // "delivered" arrived after "read": backwards, so no move and no event for it.
    expect(emitted.map((e) => (e.payload as { status: string }).status).sort()).toEqual(["read", "read", "read"]);
  });

  it("applies the others when one fails, and records the failure on the envelope", async () => {
    const rows = await sentMessages(["fine one", "refuse read", "fine two"]);
    const id = await statusEnvelope(
      rows.map((r) => r.pid),
      "read",
    );
    await expect(processInboundWebhook(h.app.systemCtx(), { id }, { retryCount: 0, retryLimit: INGEST_RETRY_LIMIT })).rejects.toThrow(/refused read/);
    const statuses = await statusOf(rows.map((r) => r.id));
    expect(statuses.get(rows[0]!.id)).toBe("read");
    expect(statuses.get(rows[1]!.id)).toBe("sent");
    expect(statuses.get(rows[2]!.id)).toBe("read");
    const [envelope] = await h.app.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, id));
    expect(envelope!.error).toContain("refused read");
  });
});
