/**
 * Helpers for the contact erasure suites: a contact seeded with rich data through the real paths
 * (sandbox join, inbound text and image through the simulator, an operator reply with an
 * Idempotency-Key, a Flow sent and completed, webhook deliveries to a real receiver), plus rows of
 * the tables whose API is still being built (registration intents, broadcast recipients), and a scan
 * of every table of the database for a set of strings.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { broadcastRecipients, broadcasts, registrationIntents } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { PAIR_INTERVAL_SECONDS, pairKey } from "@/lib/domain/messages/pacing";
import type { Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { testerNumber } from "../messages/send-support";
import { VALID_RESPONSE, complete, createFlow, publish } from "../flows/support";

export interface RichContact {
  contactId: string;
  conversationId: string;
  /** Digits, no "+". */
  phone: string;
  name: string;
  /** Strings only this contact's data contains: texts, caption, references, name, number. */
  needles: string[];
  mediaKeys: string[];
}

// A small real PNG header + random body.
const IMAGE = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), randomBytes(2048)]);

async function upload(h: Harness): Promise<string> {
  const res = await fetch(`${h.server.url}/api/simulator/customer/media`, {
    method: "POST",
    headers: { "content-type": "image/png" },
    body: new Uint8Array(IMAGE),
  });
  if (!res.ok) throw new Error(`upload: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

async function ok(result: Promise<{ status: number; body: any }>, what: string) {
  const res = await result;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Joins a fresh tester to the project and gives them messages, a file, a flow submission and more. */
export async function seedRichContact(h: Harness, seeded: Seeded, options: { flow?: boolean } = {}): Promise<RichContact> {
  const tag = randomBytes(4).toString("hex");
  const phone = testerNumber();
  const name = `Zelda Quill${tag}`;
  await h.join(seeded.projectId, phone, name);
  const conversations = await ok(h.app.call("GET", "/conversations?limit=100", { key: seeded.key }), "conversations");
  const conversation = (conversations.data as { id: string; contact_id: string; phone: string | null }[]).find((c) => c.phone === `+${phone}`)!;
  const texts = [`secret hello ${tag}`, `secret caption ${tag}`, `secret reply ${tag}`];
  await h.customer({ from: phone, name, type: "text", text: texts[0] });
  await h.customer({ from: phone, name, type: "image", media: { id: await upload(h), mime_type: "image/png", caption: texts[1] } });
  await h.settle(30);
  await ok(
    h.app.call("POST", "/messages", {
      key: seeded.key,
      headers: { "Idempotency-Key": `reply-${tag}` },
      body: { channel_id: "ch_sandbox", conversation_id: conversation.id, text: texts[2] },
    }),
    "reply",
  );
  // The Flow below is a second message to the same number: give the 6 s pair slot back instead of waiting.
  await h.app.runtime.ports.limiter.refund("strict", pairKey("PLATFORM_A", "ch_sandbox", phone), 1, PAIR_INTERVAL_SECONDS);
  const reference = `crm-${tag}`;
  await ok(h.app.call("PATCH", `/contacts/${conversation.contact_id}`, { key: seeded.key, body: { reference_id: reference } }), "reference");
  const needles = [phone, name, reference, ...texts];
  if (options.flow !== false) needles.push(...(await seedFlowSubmission(h, seeded, conversation.id, phone, tag)));
  needles.push(...(await seedNewTables(h, seeded, conversation.contact_id, phone, tag)));
  await h.settle(30);
  const files = await h.app.db.execute<{ storage_key: string }>(
    sql`select storage_key from media where project_id = ${seeded.projectId} and storage_key is not null and message_id in (select id from messages where contact_id = ${conversation.contact_id})`,
  );
  return {
    contactId: conversation.contact_id,
    conversationId: conversation.id,
    phone,
    name,
    needles,
    mediaKeys: rowsOf<{ storage_key: string }>(files).map((r) => r.storage_key),
  };
}

/** A published Flow sent to the contact and completed with answers that name them. */
async function seedFlowSubmission(h: Harness, seeded: Seeded, conversationId: string, phone: string, tag: string): Promise<string[]> {
  const flow = await createFlow(h, seeded.key, { name: `Sign-up ${tag}` });
  await publish(h, seeded.key, flow.id);
  const sent = await ok(
    h.app.call("POST", "/flows/send", {
      key: seeded.key,
      body: { channel_id: "ch_sandbox", flow_id: flow.id, conversation_id: conversationId, body_text: "Please sign up", flow_cta: "Sign up" },
    }),
    "flow send",
  );
  await h.settle(20);
  const email = `zelda.${tag}@example.com`;
  await complete(h, phone, sent.flow_token, { ...VALID_RESPONSE, full_name: `Flow Person ${tag}`, email });
  return [email, `Flow Person ${tag}`];
}

/** Rows of tables other modules are building: written directly, as their verbs would. */
async function seedNewTables(h: Harness, seeded: Seeded, contactId: string, phone: string, tag: string): Promise<string[]> {
  const now = h.app.clock.now();
  await h.app.db.insert(registrationIntents).values({
    id: newId("registrationIntent"),
    projectId: seeded.projectId,
    organizationId: seeded.orgId,
    channelId: "ch_sandbox",
    mode: "test",
    token: `svcreg_${tag}${randomBytes(8).toString("hex")}`,
    status: "COMPLETED",
    customerReference: `intent-ref-${tag}`,
    prefilledMessage: `Hi! my code intent-ref-${tag}`,
    whatsappNumber: "15550001111",
    metadata: { phone: `+${phone}`, note: `intent-meta-${tag}` },
    expiresAt: now,
    completedAt: now,
    contactId,
  });
  const broadcastId = newId("broadcast");
  await h.app.db.insert(broadcasts).values({
    id: broadcastId,
    projectId: seeded.projectId,
    channelId: "ch_sandbox",
    name: `Promo ${tag}`,
    templateId: "tmpl_x",
    templateName: "promo",
    templateLanguage: "en",
    status: "COMPLETED",
  });
  await h.app.db.insert(broadcastRecipients).values({
    id: newId("broadcastRecipient"),
    broadcastId,
    projectId: seeded.projectId,
    to: phone,
    contactId,
    parameters: { first_name: `bc-param-${tag}` },
    status: "sent",
  });
  return [`intent-ref-${tag}`, `intent-meta-${tag}`, `bc-param-${tag}`];
}

export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** Every base table of the given schemas, as `schema.table`. */
export async function allTables(h: Harness, schemas: string[] = ["public"]): Promise<string[]> {
  const list = sql.join(
    schemas.map((s) => sql`${s}`),
    sql`, `,
  );
  const result = await h.app.db.execute<{ table_schema: string; table_name: string }>(
    sql`select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema in (${list}) order by 1, 2`,
  );
  return rowsOf<{ table_schema: string; table_name: string }>(result).map((r) => `${r.table_schema}.${r.table_name}`);
}

/** Every (table, needle, row) where a row of any table mentions a needle anywhere in any column. */
export async function scanForNeedles(h: Harness, needles: string[], schemas?: string[]): Promise<{ table: string; needle: string; row: string }[]> {
  const hits: { table: string; needle: string; row: string }[] = [];
  for (const table of await allTables(h, schemas)) {
    const [schema, name] = table.split(".");
    const rows = rowsOf<Record<string, unknown>>(await h.app.db.execute(sql`select t::text as row from ${sql.identifier(schema!)}.${sql.identifier(name!)} t`));
    for (const { row } of rows as { row: string }[]) {
      for (const needle of needles) if (row.includes(needle)) hits.push({ table, needle, row: row.slice(0, 300) });
    }
  }
  return hits;
}
