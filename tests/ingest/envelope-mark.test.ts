import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { inboundWebhooks, messages } from "@/lib/db/schema";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { processInboundWebhook } from "@/lib/domain/ingest/process";
import { newId } from "@/lib/ids";
import type { Seeded } from "../support/app";
import { executedDuring } from "../support/statements";
import { joinSandbox, startHarness, storeSentMessages, storeStatusEnvelope, textA, type Harness } from "./harness";

/**
 * An envelope of one item is marked processed by the item's own statement (SystemCtx.withItemWrite):
 * a status's move as much as a customer message's insert. Where the item writes nothing of its own (a
 * status that cannot move, a message the provider sent before), the envelope's update marks it.
 */
let h: Harness;
let acme: Seeded;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
});
afterAll(() => h?.close());

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
