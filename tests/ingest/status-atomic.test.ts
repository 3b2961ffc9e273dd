import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { events, messages } from "@/lib/db/schema";
import { processInboundWebhook } from "@/lib/domain/ingest/process";
import type { Seeded } from "../support/app";
import { startHarness, storeSentMessages, storeStatusEnvelope, type Harness } from "./harness";

/**
 * A status callback moves its message and emits its message.status together: when the event cannot be
 * written, the move is not kept either, so the job's retry moves the message and emits the event then.
 * A move kept without its event would be lost for good (the retry finds the message moved already).
 */
let h: Harness;
let acme: Seeded;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  // Refuses the message.status event of the messages listed in svc_test_refuse_event.
  await h.app.db.execute(sql`create table svc_test_refuse_event (message_id text)`);
  await h.app.db.execute(sql`create or replace function svc_test_refuse_status_event() returns trigger language plpgsql as $$
    begin
      if new.type = 'message.status' and exists (select 1 from svc_test_refuse_event r where new.payload::text like '%' || r.message_id || '%') then
        raise exception 'refused status event';
      end if;
      return new;
    end $$`);
  await h.app.db.execute(sql`create trigger svc_test_refuse_status_event before insert on events for each row execute function svc_test_refuse_status_event()`);
});
afterAll(async () => {
  await h?.app.db.execute(sql`drop trigger if exists svc_test_refuse_status_event on events`).catch(() => {});
  await h?.close();
});

describe("a single status callback", () => {
  it("keeps no move without its message.status: the retry moves the message and emits the event", async () => {
    const [sent] = await storeSentMessages(h, acme.projectId, ["refuse-status-event"]);
    await h.app.db.execute(sql`insert into svc_test_refuse_event values (${sent!.id})`);
    const id = await storeStatusEnvelope(h, [[sent!.pid, "delivered"]]);
    await expect(processInboundWebhook(h.app.systemCtx(), { id })).rejects.toThrow();
    const [after] = await h.app.db.select({ status: messages.status }).from(messages).where(eq(messages.id, sent!.id));
    expect(after!.status).toBe("sent");

    await h.app.db.execute(sql`delete from svc_test_refuse_event`);
    await processInboundWebhook(h.app.systemCtx(), { id });
    const [moved] = await h.app.db.select({ status: messages.status }).from(messages).where(eq(messages.id, sent!.id));
    expect(moved!.status).toBe("delivered");
    const emitted = await h.app.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.type, "message.status"), sql`${events.payload}->>'message_id' = ${sent!.id}`));
    expect(emitted).toHaveLength(1);
  });
});
