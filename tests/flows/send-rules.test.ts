import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { channels, contacts, organizations } from "@/lib/db/schema";
import { localeCandidates } from "@/lib/domain/flows/locale";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createFlow, publish, tester } from "./support";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

describe("locale resolution chain", () => {
  it.each([
    ["explicit wins, then the default", "pt-BR", "es", ["pt-BR", null]],
    ["preferred, its primary subtag, the default", null, "pt-BR", ["pt-BR", "pt", null]],
    ["a bare preferred language", null, "es", ["es", null]],
    ["nothing known: the default", null, null, [null]],
  ] as const)("%s", (_name, explicit, preferred, chain) => {
    expect(localeCandidates(explicit, preferred)).toEqual(chain);
  });
});

let h: Harness;
let seeded: Seeded;
let phones = 0;
const nextPhone = () => `1555987${String(++phones).padStart(4, "0")}`;

beforeAll(async () => {
  // Every test has its own tester (sends to one number are paced), more than the default cap of 5.
  h = await startHarness({ settings: { sandboxParticipantCap: 100 } });
  seeded = await h.app.seed();
});
afterAll(() => h.close());

async function send(body: Record<string, unknown>, key = seeded.key) {
  return h.app.call("POST", "/flows/send", { key, body: { channel_id: "ch_sandbox", body_text: "Open me", ...body } });
}

async function setPreferred(conversationId: string, language: string | null) {
  const conversation = (await h.app.call("GET", `/conversations/${conversationId}`, { key: seeded.key })).body;
  await h.app.db.update(contacts).set({ preferredLanguage: language }).where(eq(contacts.id, conversation.contact_id));
}

describe("POST /flows/send by config_key", () => {
  it("picks the variant by locale, preferred_language, its primary subtag, then the default", async () => {
    const ids: Record<string, string> = {};
    for (const locale of ["en", "pt", null] as const) {
      const flow = await createFlow(h, seeded.key, { config_key: "welcome", locale });
      await publish(h, seeded.key, flow.id);
      ids[locale ?? "default"] = flow.id;
    }
    const cases: [string | null, string | null, string][] = [
      ["en", null, "en"],
      [null, "pt-BR", "pt"],
      [null, "de", "default"],
      ["fr", "pt", "default"],
    ];
    for (const [locale, preferred, expected] of cases) {
      const conversation = await tester(h, seeded, nextPhone());
      await setPreferred(conversation, preferred);
      const res = await send({ config_key: "welcome", conversation_id: conversation, ...(locale ? { locale } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.flow_id, `${locale} / ${preferred}`).toBe(ids[expected]);
    }
  });

  it("an unknown config_key is a 404; a group without a matching variant or default is not sendable", async () => {
    const conversation = await tester(h, seeded, nextPhone());
    expect((await send({ config_key: "nope", conversation_id: conversation })).status).toBe(404);
    const only = await createFlow(h, seeded.key, { config_key: "only-es", locale: "es" });
    await publish(h, seeded.key, only.id);
    const res = await send({ config_key: "only-es", conversation_id: conversation, locale: "en" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "flow_not_sendable", reason: "NO_LOCALE_VARIANT" });
  });
});

describe("POST /flows/send refusals", () => {
  let flowId: string;
  beforeAll(async () => {
    const flow = await createFlow(h, seeded.key);
    await publish(h, seeded.key, flow.id);
    flowId = flow.id;
  });

  it("an unpublished flow is not sendable", async () => {
    const draft = await createFlow(h, seeded.key);
    const res = await send({ flow_id: draft.id, conversation_id: await tester(h, seeded, nextPhone()) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "flow_not_sendable", reason: "FLOW_DRAFT" });
  });

  it("needs exactly one flow reference and one recipient", async () => {
    expect((await send({ conversation_id: "conv_x" })).status).toBe(400);
    expect((await send({ flow_id: flowId, config_key: "x", conversation_id: "conv_x" })).status).toBe(400);
    expect((await send({ flow_id: flowId })).status).toBe(400);
    expect((await send({ flow_id: flowId, conversation_id: "conv_x", to: "+15550001111" })).status).toBe(400);
  });

  it("a screen that is not in the flow is a 400", async () => {
    const res = await send({ flow_id: flowId, conversation_id: await tester(h, seeded, nextPhone()), screen: "NOPE" });
    expect(res.status).toBe(400);
    expect(res.body.issues).toHaveProperty("screen");
  });

  it("outside the 24 h window: 409 outside_messaging_window", async () => {
    const conversation = await tester(h, seeded, nextPhone());
    h.app.clock.advance(25 * 3600_000);
    try {
      const res = await send({ flow_id: flowId, conversation_id: conversation });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe("outside_messaging_window");
    } finally {
      h.app.clock.advance(-25 * 3600_000);
    }
  });

  it("handoff on: 409 ai_handoff_active", async () => {
    const conversation = await tester(h, seeded, nextPhone());
    await h.app.call("POST", `/conversations/${conversation}/handoff`, { key: seeded.key, body: { enabled: true } });
    const res = await send({ flow_id: flowId, conversation_id: conversation });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("ai_handoff_active");
  });

  it("the same idempotency key twice answers the same dispatch; a second send within 6 s is a 429", async () => {
    const conversation = await tester(h, seeded, nextPhone());
    const first = await send({ flow_id: flowId, conversation_id: conversation }, seeded.key);
    const replay = await h.app.call("POST", "/flows/send", {
      key: seeded.key,
      headers: { "idempotency-key": "flow-once" },
      body: { channel_id: "ch_sandbox", body_text: "Open me", flow_id: flowId, conversation_id: await tester(h, seeded, nextPhone()) },
    });
    const again = await h.app.call("POST", "/flows/send", {
      key: seeded.key,
      headers: { "idempotency-key": "flow-once" },
      body: { channel_id: "ch_sandbox", body_text: "Open me", flow_id: flowId, conversation_id: replay.body.conversation_id },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(replay.body.id);
    expect(again.body.flow_token).toBe(replay.body.flow_token);
    const paced = await send({ flow_id: flowId, conversation_id: conversation });
    expect(first.status).toBe(200);
    expect(paced.status).toBe(429);
    expect(paced.body.error).toBe("message_pair_rate_limit");
  });

  it("a channel of another business account cannot send it; PLATFORM_B cannot send flows", async () => {
    const connect = await h.app.call("POST", "/channels", {
      key: seeded.key,
      body: {
        platform: "PLATFORM_A",
        display_name: "Own",
        phone_number: "+15557770000",
        credentials: { phone_number_id: "pn-own", business_account_id: "waba-own", access_token: "t" },
      },
    });
    expect(connect.status).toBe(200);
    const res = await send({ channel_id: connect.body.id, flow_id: flowId, to: "+15557771111" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "flow_not_sendable", reason: "WABA_MISMATCH" });
    await h.app.db.update(channels).set({ platform: "PLATFORM_B" }).where(eq(channels.id, connect.body.id));
    await h.app.db.update(organizations).set({ platformBEnabled: true }).where(eq(organizations.id, seeded.orgId));
    forgetAuthenticatedKeys();
    const other = await send({ channel_id: connect.body.id, flow_id: flowId, to: "+15557771111" });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe("feature_unsupported_on_channel");
  });
});
