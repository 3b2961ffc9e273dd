import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { events, inboundWebhooks, messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { INGEST_RETRY_LIMIT, processInboundWebhook } from "@/lib/domain/ingest/process";
import { newId } from "@/lib/ids";
import type { Seeded } from "../support/app";
import { envelopeA, startHarness, type Harness } from "./harness";

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

/** Outbound messages the provider accepted (status sent), as the send path leaves them. */
async function sentMessages(contents: string[]): Promise<{ id: string; pid: string }[]> {
  const now = new Date();
  const rows = contents.map((content) => ({ id: newId("message"), pid: `wamid.RUN-${newId("message")}`, content }));
  await h.app.db.insert(messages).values(
    rows.map((r) => ({
      id: r.id,
      projectId: acme.projectId,
      conversationId: newId("conversation"),
      contactId: newId("contact"),
      channelId: SANDBOX_CHANNEL_ID,
      direction: "outbound" as const,
      type: "text",
      status: "sent" as const,
      content: r.content,
      body: { kind: "text", text: r.content },
      platformMessageId: r.pid,
      recipient: "15551110088",
      timestamp: now,
    })),
  );
  return rows;
}

async function statusEnvelope(pids: string[], status: string): Promise<string> {
  const ts = String(Math.floor(Date.now() / 1000));
  const body = envelopeA(SANDBOX_PHONE_NUMBER_ID, { statuses: pids.map((id) => ({ id, status, timestamp: ts, recipient_id: "15551110088" })) });
  const id = newId("inboundWebhook");
  await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body: JSON.stringify(body), receivedAt: h.app.clock.now() });
  return id;
}

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
