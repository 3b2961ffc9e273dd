import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { projects } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { Seeded } from "../support/app";
import { startHarness, type Harness } from "./support";
import { testerNumber } from "./send-support";

let h: Harness;
let acme: Seeded;
let joinCode: string;
/** Each test's own tester (a distinct number: pair pacing and the simulator's inbox are keyed by it). */
let tester: string;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

// Each test has its own project and tester, so none reads what another wrote.
beforeEach(async () => {
  acme = await h.app.seed();
  const [project] = await h.app.db.select().from(projects).where(eq(projects.id, acme.projectId));
  joinCode = project!.joinCode;
  tester = testerNumber();
});

/** The tester joins the project on the sandbox; returns the conversation the join opened. */
async function joined(): Promise<string> {
  await h.customer({ from: tester, name: "Ana", type: "text", text: `join ${joinCode}` });
  await h.settle(20);
  const list = await h.app.call("GET", "/conversations", { key: acme.key });
  expect(list.body.data).toHaveLength(1);
  return list.body.data[0].id;
}

describe("sandbox round trip over HTTP: join → inbound → reply → provider → status callbacks", () => {
  let conversationId = "";

  it("a tester joins with `join <code>`: participant, contact, conversation, opt-in and events", async () => {
    const sent = await h.customer({ from: tester, name: "Ana", type: "text", text: `join ${joinCode}` });
    expect(sent.delivered_status).toBe(200);
    await h.settle(20);

    const joined = await h.eventsOf(acme.projectId, "participant.joined");
    expect(joined).toHaveLength(1);
    expect(joined[0]!.payload).toMatchObject({ project_id: acme.projectId, channel_id: SANDBOX_CHANNEL_ID, phone: `+${tester}` });

    const list = await h.app.call("GET", "/conversations", { key: acme.key });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    conversationId = list.body.data[0].id;
    expect(list.body.data[0]).toMatchObject({ phone: `+${tester}`, name: "Ana", is_active: true });

    const contact = await h.app.call("GET", `/contacts/${list.body.data[0].contact_id}`, { key: acme.key });
    expect(contact.body.opt_in).toMatchObject({ status: "active", source: "sandbox_join" });

    const project = await h.app.call("GET", `/projects/${acme.projectId}`, { key: acme.key });
    expect(project.body.participant_count).toBe(1);
  });

  it("an inbound text becomes a message row and a message.received event with the spec's fields", async () => {
    conversationId = await joined();
    await h.customer({ from: tester, type: "text", text: "Hello there" });
    await h.settle(20);
    const received = (await h.eventsOf(acme.projectId, "message.received")).map((e) => e.payload as Record<string, any>);
    const hello = received.find((p) => p.text === "Hello there")!;
    expect(hello).toMatchObject({
      organization_id: acme.orgId,
      channel_id: SANDBOX_CHANNEL_ID,
      conversation_id: conversationId,
      from: `+${tester}`,
      type: "text",
      ai_handoff: { status: "AI_ACTIVE", reason: null, handoff_at: null, is_on_hold: false },
      assets: [],
      media: null,
      location: null,
    });
    expect(hello.messages).toHaveLength(1);
    expect(hello.messages[0]).toMatchObject({ type: "text", text: "Hello there", replied_to: null });
    expect(hello.message_id).toMatch(/^msg_/);
    expect(hello.contact_reference).toBe(hello.customer_reference);

    const history = await h.app.call("GET", `/conversations/${conversationId}/messages`, { key: acme.key });
    expect(history.body.data[0]).toMatchObject({ direction: "inbound", type: "text", content: "Hello there", status: "delivered" });
  });

  it("a provider retry of the same signed delivery makes no second message", async () => {
    await joined();
    const before = (await h.eventsOf(acme.projectId, "message.received")).length;
    const envelope = providerTextEnvelope(tester, "wamid.RETRY-TEST-0001", "Only once");
    expect(await postSigned(envelope)).toBe(200);
    expect(await postSigned(envelope)).toBe(200);
    await h.settle(20);
    const after = (await h.eventsOf(acme.projectId, "message.received")).map((e) => e.payload as Record<string, any>);
    expect(after.length).toBe(before + 1);
    expect(after.filter((p) => p.messages[0].id === "wamid.RETRY-TEST-0001")).toHaveLength(1);
  });

  it("a delivery with a wrong signature is refused with 401 and stores nothing", async () => {
    await joined();
    const body = JSON.stringify(providerTextEnvelope(tester, "wamid.FORGED-0001", "forged"));
    const res = await fetch(`${h.server.url}/api/providers/platform-a/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signPayload("wrong-secret", body) },
      body,
    });
    expect(res.status).toBe(401);
    await h.settle(10);
    const all = (await h.eventsOf(acme.projectId, "message.received")).map((e) => e.payload as Record<string, any>);
    expect(all.some((p) => p.messages[0].id === "wamid.FORGED-0001")).toBe(false);
  });

  it("POST /messages replies; the provider job sends it; statuses arrive signed and move it to read", async () => {
    conversationId = await joined();
    const res = await h.app.call("POST", "/messages", {
      key: acme.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Hi Ana!" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "message", status: "queued", conversation_id: conversationId });
    expect(res.body.idempotency_key).toMatch(/^idem_/);

    await h.settle(150);
    const row = await h.messageRow(res.body.id);
    expect(row.platformMessageId).toMatch(/^wamid\./);
    expect(row.status).toBe("read");
    const statuses = (await h.eventsOf(acme.projectId, "message.status"))
      .map((e) => e.payload as Record<string, any>)
      .filter((p) => p.message_id === res.body.id);
    expect(statuses.map((p) => p.status)).toEqual(["sent", "delivered", "read"]);
    expect(statuses[0]).toMatchObject({ recipient_id: tester, platform_message_id: row.platformMessageId });

    const inbox = h.server.simulator.state.inbox(SANDBOX_PHONE_NUMBER_ID, tester);
    expect(inbox.at(-1)?.body).toMatchObject({ type: "text", text: { body: "Hi Ana!" } });
  });
});

/** A provider text delivery addressed to the sandbox number, in the Cloud API's webhook format. */
function providerTextEnvelope(from: string, id: string, text: string) {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "sandbox-waba",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550000000", phone_number_id: SANDBOX_PHONE_NUMBER_ID },
              contacts: [{ profile: { name: "Ana" }, wa_id: from }],
              messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
}

async function postSigned(envelope: unknown): Promise<number> {
  const body = JSON.stringify(envelope);
  const res = await fetch(`${h.server.url}/api/providers/platform-a/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(simulatorAppSecret("PLATFORM_A"), body) },
    body,
  });
  return res.status;
}
