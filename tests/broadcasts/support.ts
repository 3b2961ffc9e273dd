import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { broadcastRecipients, channels } from "@/lib/db/schema";
import type { Harness } from "../messages/support";
import { connectNumber, createTemplate, forceReview } from "../templates/support";

let numbers = 0;

/** A fresh E.164 number (digits) no other test uses. */
export function customerNumber(): string {
  return `1555${String(process.pid % 1000).padStart(3, "0")}${String(++numbers).padStart(4, "0")}`;
}

/** A broadcast write: every one needs an Idempotency-Key; a fresh one unless given. */
export function write(h: Harness, key: string, path: string, body: unknown = {}, idempotencyKey: string | null = randomUUID()) {
  return h.app.call("POST", path, { key, body, headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {} });
}

/** A dedicated number with one APPROVED template taking one body variable ({{1}}), and the number's provider id (the simulator's sender). */
export async function readyChannel(h: Harness, key: string, name = "spring_sale") {
  const channel = await connectNumber(h, key);
  const template = await createTemplate(h, key, {
    channel_id: channel.id,
    name,
    language: "en_US",
    category: "MARKETING",
    components: [{ type: "BODY", text: "Hi {{1}}, our spring sale starts today.", example: { body_text: [["Ana"]] } }],
  });
  await forceReview(h, template.meta_template_id, { status: "APPROVED" });
  await h.settle(20);
  const [row] = await h.app.db.select({ sender: channels.providerSenderId }).from(channels).where(eq(channels.id, channel.id));
  return { channel, template, phoneNumberId: row!.sender! };
}

/** Contacts with an active opt-in (POST /contacts opt_in true). */
export async function optedIn(h: Harness, key: string, count: number, channelId: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const phone = customerNumber();
    const res = await h.app.call("POST", "/contacts", { key, body: { phone: `+${phone}`, channel_id: channelId, opt_in: true } });
    if (res.status !== 200) throw new Error(`contact: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(phone);
  }
  return out;
}

export async function createBroadcast(h: Harness, key: string, body: Record<string, unknown>) {
  const res = await write(h, key, "/broadcasts", body);
  if (res.status !== 200) throw new Error(`create broadcast: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; status: string } & Record<string, any>;
}

export async function recipientsOf(h: Harness, broadcastId: string) {
  return h.app.db.select().from(broadcastRecipients).where(eq(broadcastRecipients.broadcastId, broadcastId));
}

/** Runs jobs until the broadcast reaches one of `statuses` (bounded). */
export async function runUntil(h: Harness, key: string, id: string, statuses: string[], rounds = 40) {
  for (let i = 0; i < rounds; i++) {
    await h.settle(30);
    const res = await h.app.call("GET", `/broadcasts/${id}`, { key });
    if (statuses.includes(res.body.status)) return res.body;
  }
  const res = await h.app.call("GET", `/broadcasts/${id}`, { key });
  throw new Error(`broadcast ${id} stayed ${res.body.status}: ${JSON.stringify(res.body)}`);
}
