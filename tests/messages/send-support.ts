/**
 * Helpers for the POST /messages suites (send-*.test.ts): a harness like ./support.ts with options
 * (Redis URL, simulator status delays), tester numbers that never collide across concurrent runs
 * sharing one Redis, joining testers to a project, signed provider status callbacks, and bounded
 * "wait until" loops.
 */
import { randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { channels, messages, projects } from "@/lib/db/schema";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { CallResult } from "../support/app";
import { startHarness, type Harness, type HarnessOptions } from "./support";
import { seedTemplate } from "../templates/support";

export type SendHarnessOptions = HarnessOptions;

/**
 * ./support.ts's startHarness, with a Redis URL and simulator status delays of the test's choosing.
 * The sandbox takes 50 testers per project here (the product's default is 5): the send suites join
 * several testers to one project. A setting of this runtime, never process.env, so no other file sees it.
 */
export function startSendHarness(options: SendHarnessOptions = {}): Promise<Harness> {
  return startHarness({ ...options, settings: { sandboxParticipantCap: 50, ...options.settings } });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A PLATFORM_A tester number (digits, no "+") unique to this run: runs of other suites share the
 * Redis pair buckets, keyed by recipient. Never ends in "0000" (the simulator's undeliverable hook).
 */
export function testerNumber(): string {
  for (;;) {
    const digits = `1555${String(randomInt(0, 10_000_000)).padStart(7, "0")}`;
    if (!digits.endsWith("0000")) return digits;
  }
}

/** A number the simulator refuses with 131026 (ends in "0000"). */
export function undeliverableNumber(): string {
  return `1555${String(randomInt(0, 1000)).padStart(3, "0")}0000`;
}

export async function joinCodeOf(h: Harness, projectId: string): Promise<string> {
  const [project] = await h.app.db.select().from(projects).where(eq(projects.id, projectId));
  return project!.joinCode;
}

/** Runs jobs and waits (bounded) until `done()` holds; returns whether it did. */
export async function settleUntil(h: Harness, done: () => Promise<boolean>, timeoutMs = 8_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await h.app.runtime.ports.queue.drain();
    if (await done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

export interface Joined {
  /** Conversation id by tester number. */
  conversations: Record<string, string>;
  /** Provider id (wamid) of each tester's join message. */
  joinWamids: Record<string, string>;
}

/** Joins each tester to the project on the sandbox (their join message opens the 24 h window). */
export async function joinTesters(h: Harness, key: string, joinCode: string, testers: string[]): Promise<Joined> {
  const joinWamids: Record<string, string> = {};
  for (const tester of testers) {
    const sent = await h.customer({ from: tester, name: `Tester ${tester.slice(-4)}`, type: "text", text: `join ${joinCode}` });
    joinWamids[tester] = sent.message_id;
  }
  const conversations: Record<string, string> = {};
  const ok = await settleUntil(h, async () => {
    const list = await h.app.call("GET", "/conversations?limit=100", { key });
    for (const c of list.body.data as { id: string; phone: string }[]) conversations[c.phone.replace(/^\+/, "")] = c.id;
    return testers.every((t) => conversations[t]);
  });
  if (!ok) throw new Error(`testers did not all join: ${testers.filter((t) => !conversations[t]).join(", ")}`);
  return { conversations, joinWamids };
}

export function send(h: Harness, key: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<CallResult> {
  return h.app.call("POST", "/messages", { key, body, ...(headers ? { headers } : {}) });
}

/**
 * Creates a dedicated PLATFORM_A channel for the key's project; returns its id and phone_number_id.
 * Its approved templates: `welcome` (en), no variables, and `order_update` (en_US), one body variable.
 */
export async function createDedicatedChannel(h: Harness, key: string): Promise<{ id: string; phoneNumberId: string }> {
  const phoneNumberId = `pnid${randomInt(0, 1e9)}`;
  const res = await h.app.call("POST", "/channels", {
    key,
    body: {
      platform: "PLATFORM_A",
      display_name: "Dedicated",
      phone_number: `+${testerNumber()}`,
      credentials: { phone_number_id: phoneNumberId, business_account_id: `waba${randomInt(0, 1e9)}`, access_token: "test-token" },
    },
  });
  if (res.status !== 200) throw new Error(`POST /channels: ${res.status} ${JSON.stringify(res.body)}`);
  const [channel] = await h.app.db.select({ projectId: channels.projectId }).from(channels).where(eq(channels.id, res.body.id));
  const place = { projectId: channel!.projectId!, channelId: res.body.id as string };
  await seedTemplate(h.app.db, { ...place, name: "welcome", language: "en" });
  await seedTemplate(h.app.db, { ...place, name: "order_update", language: "en_US", components: [{ type: "BODY", text: "Your order {{1}} is on its way." }] });
  return { id: res.body.id, phoneNumberId };
}

/** Posts a provider status callback for a PLATFORM_A message, signed with the simulator's app secret. */
export async function postProviderStatus(
  h: Harness,
  input: { phoneNumberId: string; wamid: string; status: string; recipient: string; errors?: unknown[] },
): Promise<number> {
  const item: Record<string, unknown> = {
    id: input.wamid,
    status: input.status,
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: input.recipient,
  };
  if (input.errors) item.errors = input.errors;
  const envelope = {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "waba",
        changes: [
          {
            field: "messages",
            value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550000000", phone_number_id: input.phoneNumberId }, statuses: [item] },
          },
        ],
      },
    ],
  };
  const body = JSON.stringify(envelope);
  const res = await fetch(`${h.server.url}/api/providers/platform-a/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(simulatorAppSecret("PLATFORM_A"), body) },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Outbound message rows of a project (for "no row was written" checks). */
export async function outboundRows(h: Harness, projectId: string) {
  return h.app.db
    .select()
    .from(messages)
    .where(and(eq(messages.projectId, projectId), eq(messages.direction, "outbound")));
}

/** The spec's send response fields, plus the Message object's structured content (null except the one sent). */
export const CONTENT_FIELDS = ["interactive", "location", "contacts", "template", "reaction", "sticker"] as const;
export const RESPONSE_FIELDS = ["object", "id", "status", "conversation_id", "contact_id", "idempotency_key", ...CONTENT_FIELDS].sort();
