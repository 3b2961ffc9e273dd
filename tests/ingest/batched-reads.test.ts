import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { inboundWebhooks, messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { processInboundWebhook } from "@/lib/domain/ingest/process";
import { newId } from "@/lib/ids";
import type { Seeded } from "../support/app";
import { joinSandbox, startHarness, textA, type Harness } from "./harness";

/**
 * The ingest jobs of one fetch run side by side (the worker's pump starts them together). Each envelope
 * must still get exactly its own answers: its own body, its channel (or none), its own dedupe verdict,
 * its own project, its own processed_at. Worth keeping whenever their reads or writes are shared
 * between jobs (README "Performance": batching them was tried).
 */
const TESTERS = ["15551112001", "15551112002", "15551112003"];
/** Joined to another project: its message must land there, though read in the same batch. */
const OTHER = "15551112004";
let h: Harness;
let acme: Seeded;
let beta: Seeded;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  beta = await h.app.seed();
  for (const tester of TESTERS) await joinSandbox(h, acme.projectId, tester);
  await joinSandbox(h, beta.projectId, OTHER);
});
afterAll(() => h?.close());

async function storeEnvelope(body: unknown): Promise<string> {
  const id = newId("inboundWebhook");
  await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body: JSON.stringify(body), receivedAt: h.app.clock.now() });
  return id;
}

describe("ingest jobs that run side by side", () => {
  it("each envelope is applied once with its own content; duplicates, unknown senders and missing envelopes stay apart", async () => {
    const ids = [
      await storeEnvelope(textA(SANDBOX_PHONE_NUMBER_ID, TESTERS[0]!, "wamid.BATCH-1", "first")),
      await storeEnvelope(textA(SANDBOX_PHONE_NUMBER_ID, TESTERS[1]!, "wamid.BATCH-2", "second")),
      await storeEnvelope(textA(SANDBOX_PHONE_NUMBER_ID, TESTERS[2]!, "wamid.BATCH-3", "third")),
      // The same provider message twice in one batch: stored once.
      await storeEnvelope(textA(SANDBOX_PHONE_NUMBER_ID, TESTERS[0]!, "wamid.BATCH-1", "first")),
      await storeEnvelope(textA(SANDBOX_PHONE_NUMBER_ID, OTHER, "wamid.BATCH-4", "fourth")),
      // A number no channel has: nothing stored, the envelope still processed.
      await storeEnvelope(textA("999000999000", TESTERS[1]!, "wamid.BATCH-X", "nobody's")),
    ];
    const ctx = h.app.systemCtx();
    await Promise.all([...ids.map((id) => processInboundWebhook(ctx, { id })), processInboundWebhook(ctx, { id: newId("inboundWebhook") })]);

    const stored = await h.app.db
      .select({ providerId: messages.platformMessageId, content: messages.content, projectId: messages.projectId })
      .from(messages)
      .where(
        and(
          eq(messages.channelId, SANDBOX_CHANNEL_ID),
          inArray(messages.platformMessageId, ["wamid.BATCH-1", "wamid.BATCH-2", "wamid.BATCH-3", "wamid.BATCH-4", "wamid.BATCH-X"]),
        ),
      );
    expect(stored.sort((a, b) => a.providerId!.localeCompare(b.providerId!))).toEqual([
      { providerId: "wamid.BATCH-1", content: "first", projectId: acme.projectId },
      { providerId: "wamid.BATCH-2", content: "second", projectId: acme.projectId },
      { providerId: "wamid.BATCH-3", content: "third", projectId: acme.projectId },
      { providerId: "wamid.BATCH-4", content: "fourth", projectId: beta.projectId },
    ]);
    const envelopes = await h.app.db.select().from(inboundWebhooks).where(inArray(inboundWebhooks.id, ids));
    expect(envelopes).toHaveLength(ids.length);
    for (const envelope of envelopes) {
      expect(envelope.processedAt).toBeInstanceOf(Date);
      expect(envelope.error).toBeNull();
    }
    // A provider retry in a later batch is still a duplicate.
    const retry = await storeEnvelope(textA(SANDBOX_PHONE_NUMBER_ID, TESTERS[1]!, "wamid.BATCH-2", "second"));
    await processInboundWebhook(ctx, { id: retry });
    const twice = await h.app.db.select({ id: messages.id }).from(messages).where(eq(messages.platformMessageId, "wamid.BATCH-2"));
    expect(twice).toHaveLength(1);
  });
});
