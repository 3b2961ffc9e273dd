import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { registrationIntents } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { connectChannel, deliver, receivedFor, startHarness, textA, type Harness } from "../ingest/harness";

/** An inbound message carrying an intent's token completes it (docs/spec/decisions.md "Registration intents"). */
let h: Harness;
type Payload = Record<string, any>;
let testers = 0;
/** A fresh sandbox tester number per test: a tester belongs to one project at a time. */
const nextTester = () => `1555777${String(++testers).padStart(4, "0")}`;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

async function say(from: string, text: string): Promise<string> {
  const sent = await h.customer({ from, name: "Robin", type: "text", text });
  expect(sent.delivered_status).toBe(200);
  await h.app.runtime.ports.queue.drain();
  return sent.message_id;
}

async function mint(seeded: Seeded, body: Record<string, unknown> = {}) {
  const res = await h.app.call("POST", "/registration-intents", { key: seeded.key, body: { customer_reference: "cust-42", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Payload;
}

const intentOf = async (seeded: Seeded, id: string) => (await h.app.call("GET", `/registration-intents/${id}`, { key: seeded.key })).body as Payload;

describe("completing a registration intent on the sandbox", () => {
  it("the token inside an edited text completes it: reference, opt-in, participant.joined, later events carry the reference", async () => {
    const seeded = await h.app.seed({ orgName: "Reg" });
    const intent = await mint(seeded);
    const tester = nextTester();
    const edited = `hey there!! ${intent.token.toLowerCase()} (sent from my phone)`;
    const first = await say(tester, edited);

    const done = await intentOf(seeded, intent.id);
    expect(done).toMatchObject({ status: "COMPLETED", contact_id: expect.stringMatching(/^ct_/), completed_at: h.app.clock.now().toISOString() });
    const contact = (await h.app.call("GET", `/contacts/${done.contact_id}`, { key: seeded.key })).body;
    expect(contact.reference_id).toBe("cust-42");
    expect(contact.opt_in).toMatchObject({ status: "active", source: "registration_intent" });

    const joined = (await h.eventsOf(seeded.projectId, "participant.joined")).map((e) => e.payload as Payload);
    expect(joined).toHaveLength(1);
    expect(joined[0]).toMatchObject({
      project_id: seeded.projectId,
      channel_id: SANDBOX_CHANNEL_ID,
      contact_id: done.contact_id,
      contact_reference: "cust-42",
    });
    // The message itself is stored in the project and announced with the reference.
    expect((await receivedFor(h, seeded.projectId, first))[0]).toMatchObject({ text: edited, contact_reference: "cust-42" });
    const [row] = await h.app.db.select().from(registrationIntents).where(eq(registrationIntents.id, intent.id));
    expect(row!.messageId).toMatch(/^msg_/);

    const later = await say(tester, "what's next?");
    expect((await receivedFor(h, seeded.projectId, later))[0]).toMatchObject({ contact_reference: "cust-42", customer_reference: "cust-42" });
  });

  it("a completed token sent again from another number is an ordinary message (and joins nobody)", async () => {
    const seeded = await h.app.seed({ orgName: "Reuse" });
    const intent = await mint(seeded, { customer_reference: "first" });
    const a = nextTester();
    await say(a, intent.prefilled_message);
    const completed = await intentOf(seeded, intent.id);
    expect(completed.status).toBe("COMPLETED");

    const b = nextTester();
    const again = await say(b, intent.prefilled_message);
    expect(await intentOf(seeded, intent.id)).toMatchObject({ status: "COMPLETED", contact_id: completed.contact_id });
    // b never joined: the message goes nowhere, and no second participant.joined.
    expect(await receivedFor(h, seeded.projectId, again)).toHaveLength(0);
    expect(await h.eventsOf(seeded.projectId, "participant.joined")).toHaveLength(1);
  });

  it("after expiry the token does nothing and the intent is written EXPIRED", async () => {
    const seeded = await h.app.seed({ orgName: "Late" });
    const intent = await mint(seeded, { expires_in_seconds: 60 });
    h.app.clock.advance(61_000);
    const tester = nextTester();
    await h.join(seeded.projectId, tester);
    const id = await say(tester, intent.prefilled_message);
    const [row] = await h.app.db.select().from(registrationIntents).where(eq(registrationIntents.id, intent.id));
    expect(row!.status).toBe("EXPIRED");
    const received = (await receivedFor(h, seeded.projectId, id))[0]!;
    expect(received.text).toBe(intent.prefilled_message);
    expect(received.contact_reference).toBe(received.contact_id);
  });
});

describe("completing a registration intent on the project's own number", () => {
  it("a live intent completes by a message to the dedicated channel, not by one to the sandbox", async () => {
    const seeded = await h.app.seed({ orgName: "Live" });
    const channel = await connectChannel(h, seeded, {
      platform: "PLATFORM_A",
      phone_number: "+14155550123",
      credentials: { phone_number_id: "pn-reg-live", business_account_id: "waba-reg-live", access_token: "t" },
    });
    const intent = await mint(seeded, { customer_reference: "live-7" });
    expect(intent.mode).toBe("live");
    expect(intent.whatsapp_number).toBe("+14155550123");
    expect(channel.phone_number).toBe("+14155550123");
    expect(intent.wa_link).toMatch(/^https:\/\/wa\.me\/14155550123\?text=/);

    // The same token on the sandbox: not this intent's number.
    await say(nextTester(), intent.prefilled_message);
    expect((await intentOf(seeded, intent.id)).status).toBe("PENDING");

    await deliver(h, "platform-a", textA("pn-reg-live", "14155550777", "wamid.REG-LIVE-1", `ok ${intent.token}`));
    const done = await intentOf(seeded, intent.id);
    expect(done.status).toBe("COMPLETED");
    const contact = (await h.app.call("GET", `/contacts/${done.contact_id}`, { key: seeded.key })).body;
    expect(contact).toMatchObject({ reference_id: "live-7", opt_in: { status: "active", source: "registration_intent" } });
    expect(await h.eventsOf(seeded.projectId, "participant.joined")).toHaveLength(0);
  });

  it("a connected number without a known phone_number refuses to mint (409) rather than fall back to the sandbox", async () => {
    const seeded = await h.app.seed({ orgName: "NoNumber" });
    await connectChannel(h, seeded, {
      platform: "PLATFORM_A",
      credentials: { phone_number_id: "pn-reg-nonum", business_account_id: "waba-nonum", access_token: "t" },
    });
    const res = await h.app.call("POST", "/registration-intents", { key: seeded.key, body: { customer_reference: "x" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("conflict");
  });
});
