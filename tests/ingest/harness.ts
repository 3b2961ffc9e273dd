import { expect } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { inboundWebhooks, messages, organizations, projects } from "@/lib/db/schema";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { Seeded } from "../support/app";
import type { Harness } from "../messages/support";
import { fixture } from "./support";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { newId } from "@/lib/ids";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

export { startHarness, type Harness } from "../messages/support";

export type Slug = "platform-a" | "platform-b" | "platform-c";
export const PLATFORM_OF: Record<Slug, ProviderPlatform> = { "platform-a": "PLATFORM_A", "platform-b": "PLATFORM_B", "platform-c": "PLATFORM_C" };

/** The fixtures' PLATFORM_A business number (metadata.phone_number_id / display number) and ids. */
export const FIXTURE_A = { phoneNumberId: "106540352242922", phoneNumber: "+15550783881", waba: "102290129340398" };
export const FIXTURE_B = { accountId: "17841405822304914" };
export const FIXTURE_C = { pageId: "112233445566778" };

type Payload = Record<string, any>;

/**
 * POSTs a provider delivery to our webhook endpoint over HTTP, signed with the platform's app secret
 * (or the given secret / header; `signature: null` sends none).
 */
export async function postProvider(h: Harness, slug: Slug, body: unknown, options: { secret?: string; signature?: string | null } = {}): Promise<Response> {
  const raw = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const signature = options.signature === undefined ? signPayload(options.secret ?? simulatorAppSecret(PLATFORM_OF[slug]), raw) : options.signature;
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  return fetch(`${h.server.url}/api/providers/${slug}/webhook`, { method: "POST", headers, body: raw as BodyInit });
}

/** Posts a signed delivery, expects 200 and runs the ingest jobs it queued. */
export async function deliver(h: Harness, slug: Slug, body: unknown): Promise<void> {
  const res = await postProvider(h, slug, body);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  await h.app.runtime.ports.queue.drain();
}

/** A fixture with strings swapped everywhere (ids, numbers), as a fresh object. */
export function adapted(name: string, swaps: Record<string, string> = {}): Payload {
  let text = JSON.stringify(fixture(name));
  for (const [from, to] of Object.entries(swaps)) text = text.split(from).join(to);
  return JSON.parse(text) as Payload;
}

/** A PLATFORM_A "messages" (or other field) delivery to a phone number id. */
export function envelopeA(phoneNumberId: string, value: Record<string, unknown>, field = "messages"): Payload {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "waba-test",
        changes: [
          { field, value: { messaging_product: "whatsapp", metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId }, ...value } },
        ],
      },
    ],
  };
}

/** One PLATFORM_A customer text in the Cloud API's webhook shape. */
export function textA(phoneNumberId: string, from: string, id: string, text: string, at = Date.now()): Payload {
  return envelopeA(phoneNumberId, {
    contacts: [{ profile: { name: "Tester" }, wa_id: from }],
    messages: [{ from, id, timestamp: String(Math.floor(at / 1000)), type: "text", text: { body: text } }],
  });
}

/** A Messenger Platform delivery (PLATFORM_B: instagram, PLATFORM_C: page) with messaging items. */
export function envelopeM(platform: "PLATFORM_B" | "PLATFORM_C", entryId: string, items: Record<string, unknown>[]): Payload {
  return { object: platform === "PLATFORM_B" ? "instagram" : "page", entry: [{ id: entryId, time: Date.now(), messaging: items }] };
}

export async function joinCodeOf(h: Harness, projectId: string): Promise<string> {
  const [project] = await h.app.db.select().from(projects).where(eq(projects.id, projectId));
  return project!.joinCode;
}

/** A tester joins the project on the shared sandbox through the simulator. */
export async function joinSandbox(h: Harness, projectId: string, tester: string): Promise<void> {
  const sent = await h.customer({ from: tester, name: "Tester", type: "text", text: `join ${await joinCodeOf(h, projectId)}` });
  expect(sent.delivered_status).toBe(200);
  await h.app.runtime.ports.queue.drain();
}

export async function enablePlatforms(h: Harness, orgId: string): Promise<void> {
  await h.app.db.update(organizations).set({ platformBEnabled: true, platformCEnabled: true }).where(eq(organizations.id, orgId));
  forgetAuthenticatedKeys();
}

/** POST /channels for the seeded project; returns the Channel. */
export async function connectChannel(h: Harness, seeded: Seeded, body: Record<string, unknown>): Promise<Payload> {
  const res = await h.app.call("POST", "/channels", { key: seeded.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function setProjectRouting(h: Harness, seeded: Seeded, mode: "EXTERNAL" | "FLOWS" | "AGENT"): Promise<void> {
  const res = await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { routing_mode: mode } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** message.received payloads of a project whose messages[0].id is the provider id. */
export async function receivedFor(h: Harness, projectId: string, providerId: string): Promise<Payload[]> {
  return (await h.eventsOf(projectId, "message.received")).map((e) => e.payload as Payload).filter((p) => p.messages[0].id === providerId);
}

/** The one message.received event row (payload, deliver, route) for a provider id. */
export async function receivedEvent(h: Harness, projectId: string, providerId: string) {
  const rows = (await h.eventsOf(projectId, "message.received")).filter((e) => (e.payload as Payload).messages[0].id === providerId);
  expect(rows, `one message.received for ${providerId}`).toHaveLength(1);
  return rows[0]!;
}

export async function rowByProviderId(h: Harness, channelId: string, providerId: string) {
  const rows = await h.app.db
    .select()
    .from(messages)
    .where(and(eq(messages.channelId, channelId), eq(messages.platformMessageId, providerId)));
  return rows;
}

export async function webhookRows(h: Harness) {
  return h.app.db.select().from(inboundWebhooks).orderBy(asc(inboundWebhooks.id));
}

export async function messageCount(h: Harness): Promise<number> {
  return (await h.app.db.select({ id: messages.id }).from(messages)).length;
}

const ITEM_FIELDS = ["id", "type", "text", "received_at", "media", "location", "interactive", "replied_to"];

/**
 * Every field of the spec's message.received table, with its type; the messages[] item's common fields.
 * Returns the payload for further, type-specific checks.
 */
export function expectReceivedShape(p: Payload): Payload {
  for (const key of [
    "agent_id",
    "organization_id",
    "channel_id",
    "conversation_id",
    "contact_id",
    "user_id",
    "message_id",
    "type",
    "contact_reference",
    "customer_reference",
  ]) {
    expect(typeof p[key], `${key} is a string`).toBe("string");
  }
  expect(p.from === null || typeof p.from === "string").toBe(true);
  expect(p).toHaveProperty("text");
  expect(p.text === null || typeof p.text === "string").toBe(true);
  expect(p.message_id).toMatch(/^msg_/);
  expect(Object.keys(p.ai_handoff).sort()).toEqual(["handoff_at", "is_on_hold", "reason", "status"]);
  expect(typeof p.ai_handoff.is_on_hold).toBe("boolean");
  expect(Array.isArray(p.messages)).toBe(true);
  expect(p.messages).toHaveLength(1);
  for (const key of ITEM_FIELDS) expect(p.messages[0], `messages[0].${key}`).toHaveProperty(key);
  expect(Array.isArray(p.assets)).toBe(true);
  expect(p).toHaveProperty("media");
  expect(p).toHaveProperty("location");
  expect(p.contact_reference).toBe(p.customer_reference);
  expect(typeof p.metadata).toBe("object");
  expect(p.metadata).not.toBeNull();
  return p;
}

/** The media object of the spec (Inbound media / Message.media) before the media cache exists. */
export function expectUncachedMedia(
  media: Payload,
  expected: { type: string; provider: string; message_id: string; provider_media_id?: string | null; mime_type?: string | null; file_name?: string | null },
): void {
  // Every file has its media id from ingest on. Files the simulator serves get cached (available,
  // with a signed URL and a retention deadline); fixtures' provider ids are unknown, so those stay
  // unavailable with no URL. Either way the object is consistent.
  expect(media).toMatchObject({ id: expect.stringMatching(/^med_/), ...expected });
  if (media.status === "available") {
    expect(media).toMatchObject({
      accessible: true,
      url: expect.stringMatching(/\/api\/v1\/media\/med_[^/]+\/content\?token=/),
      expires_at: expect.any(String),
      error_code: null,
    });
  } else {
    expect(media).toMatchObject({ status: "unavailable", accessible: false, url: null, expires_at: null });
  }
  for (const key of ["file_size", "platform_a_media_id", "access_policy", "error_code", "note"]) expect(media).toHaveProperty(key);
}

/** The tester outbound messages in these helpers are sent to. */
export const SENT_TO = "15551110088";

/**
 * Outbound messages on the sandbox that the provider accepted (status sent, each with its provider id),
 * as the send path leaves them: what a status callback refers to.
 */
export async function storeSentMessages(h: Harness, projectId: string, contents: string[]): Promise<{ id: string; pid: string }[]> {
  const now = new Date();
  const rows = contents.map((content) => ({ id: newId("message"), pid: `wamid.RUN-${newId("message")}`, content }));
  await h.app.db.insert(messages).values(
    rows.map((r) => ({
      id: r.id,
      projectId,
      conversationId: newId("conversation"),
      contactId: newId("contact"),
      channelId: SANDBOX_CHANNEL_ID,
      direction: "outbound" as const,
      type: "text",
      status: "sent" as const,
      content: r.content,
      body: { kind: "text", text: r.content },
      platformMessageId: r.pid,
      recipient: SENT_TO,
      timestamp: now,
    })),
  );
  return rows;
}

/** One stored sandbox envelope of [provider id, status] pairs, in that order, to SENT_TO; returns its id for processInboundWebhook. */
export async function storeStatusEnvelope(h: Harness, pairs: [string, string][]): Promise<string> {
  const ts = String(Math.floor(Date.now() / 1000));
  const body = envelopeA(SANDBOX_PHONE_NUMBER_ID, { statuses: pairs.map(([id, status]) => ({ id, status, timestamp: ts, recipient_id: SENT_TO })) });
  const id = newId("inboundWebhook");
  await h.app.db.insert(inboundWebhooks).values({ id, platform: "PLATFORM_A", body: JSON.stringify(body), receivedAt: h.app.clock.now() });
  return id;
}
