import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inArray } from "drizzle-orm";
import { inboundWebhooks, messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { normalizePlatformAWebhook } from "@/lib/domain/ingest/normalize-platform-a";
import type { Seeded } from "../support/app";
import type { Harness } from "../messages/support";
import { joinCodeOf, joinTesters, send, settleUntil, startSendHarness, testerNumber, type Joined } from "../messages/send-support";

/**
 * Our ingest over the simulator's coalesced status callbacks (lib/simulator/webhooks.ts): one provider
 * webhook whose value.statuses[] holds the statuses of several messages moves every one of them.
 */
const PHONE_NUMBER_ID = "106540352242922";

describe("normalizing an envelope with many statuses", () => {
  it("yields one status event per item, in the envelope's order", () => {
    const items = ["sent", "delivered", "read", "sent"].map((status, i) => ({
      id: `wamid.M${i}`,
      status,
      timestamp: String(1_780_000_000 + i),
      recipient_id: `1555000000${i}`,
    }));
    const envelope = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "waba",
          changes: [
            {
              field: "messages",
              value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550000000", phone_number_id: PHONE_NUMBER_ID }, statuses: items },
            },
          ],
        },
      ],
    };
    const events = normalizePlatformAWebhook(envelope);
    expect(events.map((e) => (e.kind === "status" ? [e.senderId, e.platform_message_id, e.status, e.recipient_id] : e.kind))).toEqual(
      items.map((item) => [PHONE_NUMBER_ID, item.id, item.status, item.recipient_id]),
    );
  });
});

describe("coalesced callbacks from the simulator", () => {
  let h: Harness;
  let acme: Seeded;
  let joined: Joined;
  const testers = Array.from({ length: 8 }, () => testerNumber());

  beforeAll(async () => {
    h = await startSendHarness({ statusDelaysMs: { sent: 100, delivered: 200, read: 300 } });
    acme = await h.app.seed();
    joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), testers);
  });
  afterAll(() => h?.close());

  it("a burst of sends: every message ends read with its three message.status events, some webhooks carrying several statuses", async () => {
    const received = await Promise.all(
      testers.map((tester) => send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[tester], text: "Flash sale" })),
    );
    expect(received.map((r) => r.status)).toEqual(testers.map(() => 200));
    const ids = received.map((r) => r.body.id as string);
    const rows = () => h.app.db.select().from(messages).where(inArray(messages.id, ids));
    expect(await settleUntil(h, async () => (await rows()).every((m) => m.status === "read"), 15_000)).toBe(true);

    const wamids = new Set((await rows()).map((m) => m.platformMessageId));
    const bodies = (await h.app.db.select().from(inboundWebhooks)).map((w) => JSON.parse(w.body) as Record<string, any>);
    const statusLists = bodies
      .map((b) => (b.entry?.[0]?.changes?.[0]?.value?.statuses ?? []) as { id: string; status: string }[])
      .filter((list) => list.some((s) => wamids.has(s.id)));
    expect(statusLists.flat().filter((s) => wamids.has(s.id))).toHaveLength(ids.length * 3);
    expect(statusLists.some((list) => list.length > 1)).toBe(true);
    expect(statusLists.length).toBeLessThan(ids.length * 3);

    const events = await h.eventsOf(acme.projectId, "message.status");
    for (const id of ids) {
      const mine = events.map((e) => e.payload as Record<string, any>).filter((p) => p.message_id === id);
      expect(
        mine.map((p) => p.status),
        id,
      ).toEqual(["sent", "delivered", "read"]);
    }
  });
});
