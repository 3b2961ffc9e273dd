import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { inboundWebhooks } from "@/lib/db/schema";
import { processInboundWebhook } from "@/lib/domain/ingest/process";
import { installDirectDeliveries } from "@/lib/domain/webhooks/direct";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { newId } from "@/lib/ids";
import { startReceiver, type Receiver } from "../support/receiver";
import { joinSandbox, startHarness, textA, type Harness } from "../ingest/harness";

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});
it("one inbound", async () => {
  h.app.clock.set(Date.now());
  const acme = await h.app.seed();
  await h.app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/hooks` } });
  await joinSandbox(h, acme.projectId, "15551119999");
  const { db, ports, settings } = h.app.systemCtx();
  const un = installDirectDeliveries({ db, ports, settings });
  for (const n of [1, 2]) {
    const id = newId("inboundWebhook");
    await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body: JSON.stringify(textA(SANDBOX_PHONE_NUMBER_ID, "15551119999", `wamid.S-${n}`, "hello")), receivedAt: h.app.clock.now() });
    await h.app.db.execute(sql.raw(`select 'MARK start ${n}'`));
    await processInboundWebhook(h.app.systemCtx(), { id });
    await un(5000);
    await h.app.db.execute(sql.raw(`select 'MARK end ${n}'`));
  }
  expect(receiver.received.length).toBeGreaterThan(0);
});
