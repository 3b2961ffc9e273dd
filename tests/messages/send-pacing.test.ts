/**
 * POST /messages pair pacing (1 new message per 6 s per platform, sender channel and recipient) and
 * idempotency. The one real wait of the send suites is here: the pair slot reopening (≤ 6 s).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { expectError } from "../support/wire";
import type { Harness } from "./support";
import {
  RESPONSE_FIELDS,
  createDedicatedChannel,
  joinCodeOf,
  joinTesters,
  send,
  settleUntil,
  sleep,
  startSendHarness,
  testerNumber,
  type Joined,
} from "./send-support";

let h: Harness;
let acme: Seeded;
let joined: Joined;
// One recipient per test that takes a pair slot, so no test runs into another's pacing.
const PACED = testerNumber();
const SPLIT = testerNumber();
const OTHER = testerNumber();
const REPLAYED = testerNumber();
const RETRIED = testerNumber();
const IDEM = testerNumber();
const IDEM_GENERATED = testerNumber();
const REUSED = testerNumber();

beforeAll(async () => {
  h = await startSendHarness();
  acme = await h.app.seed();
  joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), [PACED, SPLIT, OTHER, REPLAYED, RETRIED, IDEM, IDEM_GENERATED, REUSED]);
});
afterAll(() => h?.close());

const key = (label: string) => `${label}-${randomUUID()}`;

function reply(tester: string, text: string, idempotencyKey?: string) {
  return send(
    h,
    acme.key,
    { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[tester], text },
    idempotencyKey ? { "Idempotency-Key": idempotencyKey } : undefined,
  );
}

async function rowsWithKey(idempotencyKey: string) {
  return h.app.db
    .select()
    .from(messages)
    .where(and(eq(messages.projectId, acme.projectId), eq(messages.idempotencyKey, idempotencyKey)));
}

function inbox(tester: string) {
  return h.server.simulator.state.inbox(SANDBOX_PHONE_NUMBER_ID, tester);
}

/**
 * The pair slot taken: a first message with its own key sent and handed to the provider, then a second
 * one refused (429) with the retry it was given.
 */
async function pacedPair(tester: string) {
  const keys = { first: key("first"), second: key("second"), third: key("third") };
  const ok = await reply(tester, "First", keys.first);
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  expect(await settleUntil(h, async () => inbox(tester).length === 1)).toBe(true);
  const rejectedAt = Date.now();
  const res = await reply(tester, "Second", keys.second);
  expectError(res, 429, "message_pair_rate_limit");
  const rejected = { retryAfter: res.body.retry_after as number, reset: Number(res.headers.get("ratelimit-reset")) };
  return { ...keys, firstResponse: ok.body as Record<string, unknown>, rejectedAt, rejected };
}

describe("pair pacing: 1 new message per 6 s per (platform, channel, recipient)", () => {
  it("a second new message to the same recipient within 6 s is 429 message_pair_rate_limit with the spec's body and headers", async () => {
    const first = key("first");
    const second = key("second");
    const ok = await reply(PACED, "First", first);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // Hand it to the provider now, so the provider's own pacing clock starts with ours.
    expect(await settleUntil(h, async () => inbox(PACED).length === 1)).toBe(true);

    const rejectedAt = Date.now();
    const res = await reply(PACED, "Second", second);
    expectError(res, 429, "message_pair_rate_limit");
    expect(res.body).toEqual({
      error: "message_pair_rate_limit",
      message: expect.stringContaining("6 s"),
      channel_id: SANDBOX_CHANNEL_ID,
      channel_platform: "PLATFORM_A",
      queued: false,
      retryable: true,
      retry_after: expect.any(Number),
    });
    const retryAfter = res.body.retry_after as number;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(6);
    expect(res.headers.get("ratelimit-limit")).toBe("1");
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
    expect(res.headers.get("retry-after")).toBe(String(retryAfter));
    expect(res.headers.get("x-svc-limit-type")).toBe("message_pair_rate_limit");
    const reset = Number(res.headers.get("ratelimit-reset"));
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(Math.floor(rejectedAt / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil(rejectedAt / 1000) + 6);

    expect(await rowsWithKey(second)).toHaveLength(0);
  });

  it("separate recipients and separate channels do not share a bucket", async () => {
    await pacedPair(SPLIT);
    const otherRecipient = await reply(OTHER, "Different recipient, same channel");
    expect(otherRecipient.status, JSON.stringify(otherRecipient.body)).toBe(200);

    // The paced recipient, from a dedicated channel of the project: a bucket of its own.
    const channel = await createDedicatedChannel(h, acme.key);
    expect((await h.app.call("POST", "/contacts", { key: acme.key, body: { phone: `+${SPLIT}`, channel_id: channel.id, opt_in: true } })).status).toBe(200);
    const otherChannel = await send(h, acme.key, { channel_id: channel.id, to: `+${SPLIT}`, template: { name: "welcome", language: "en" } });
    expect(otherChannel.status, JSON.stringify(otherChannel.body)).toBe(200);
  });

  it("replaying an already-recorded key returns the stored result (Idempotent-Replayed: true) and takes no slot", async () => {
    const { first, third, firstResponse, rejected } = await pacedPair(REPLAYED);
    const replay = await reply(REPLAYED, "First", first);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(firstResponse);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    // The next different message is paced exactly as before: same window, same reset.
    const paced = await reply(REPLAYED, "Third", third);
    expectError(paced, 429, "message_pair_rate_limit");
    expect(Math.abs(Number(paced.headers.get("ratelimit-reset")) - rejected.reset)).toBeLessThanOrEqual(1);
    expect(await rowsWithKey(third)).toHaveLength(0);
  });

  it("after Retry-After, the rejected request's Idempotency-Key works; a replay just before took no slot", async () => {
    const { first, second, third, rejectedAt, rejected } = await pacedPair(RETRIED);
    expect((await reply(RETRIED, "First", first)).headers.get("idempotent-replayed")).toBe("true");
    const providerAt = Date.parse(inbox(RETRIED)[0]!.sent_at);
    const wait = Math.max(rejectedAt + rejected.retryAfter * 1000, providerAt + 6000) + 250 - Date.now();
    expect(wait).toBeLessThan(7000);
    if (wait > 0) await sleep(wait);

    const replay = await reply(RETRIED, "First", first);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const retried = await reply(RETRIED, "Second", second);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.idempotency_key).toBe(second);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();

    expect(await rowsWithKey(first)).toHaveLength(1);
    expect(await rowsWithKey(second)).toHaveLength(1);
    expect(await rowsWithKey(third)).toHaveLength(0);
    expect(await settleUntil(h, async () => inbox(RETRIED).length === 2)).toBe(true);
    expect(inbox(RETRIED).map((m) => (m.body.text as { body: string }).body)).toEqual(["First", "Second"]);
    expect(await settleUntil(h, async () => (await h.messageRow(retried.body.id)).status === "read")).toBe(true);
  });
});

describe("idempotency", () => {
  it("no key: one is generated and returned in idempotency_key", async () => {
    const res = await reply(IDEM_GENERATED, "No key given");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(RESPONSE_FIELDS);
    expect(res.body.idempotency_key).toMatch(/^idem_/);
    expect(await rowsWithKey(res.body.idempotency_key)).toHaveLength(1);
  });

  it("same key + same body: the same response replayed, one message row, one provider call", async () => {
    const k = key("same");
    const original = await reply(IDEM, "Exactly once", k);
    expect(original.status).toBe(200);
    expect(original.body.idempotency_key).toBe(k);
    expect(original.headers.get("idempotent-replayed")).toBeNull();

    const replay = await reply(IDEM, "Exactly once", k);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(original.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    // The body form of the key is the same key.
    const bodyForm = await send(h, acme.key, {
      channel_id: SANDBOX_CHANNEL_ID,
      conversation_id: joined.conversations[IDEM],
      text: "Exactly once",
      idempotency_key: k,
    });
    expect(bodyForm.status).toBe(200);
    expect(bodyForm.body).toEqual(original.body);
    expect(bodyForm.headers.get("idempotent-replayed")).toBe("true");

    expect(await rowsWithKey(k)).toHaveLength(1);
    expect(await settleUntil(h, async () => (await h.messageRow(original.body.id)).status === "read")).toBe(true);
    expect(inbox(IDEM)).toHaveLength(1);
  });

  it("same key + different body: 409 idempotency_key_reused, nothing new written", async () => {
    const k = key("reused");
    const original = await reply(REUSED, "Version one", k);
    expect(original.status).toBe(200);
    const res = await reply(REUSED, "Version two", k);
    expectError(res, 409, "idempotency_key_reused");
    expect(await rowsWithKey(k)).toHaveLength(1);
    const elsewhere = await send(
      h,
      acme.key,
      { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[IDEM], text: "Version one" },
      { "Idempotency-Key": k },
    );
    expectError(elsewhere, 409, "idempotency_key_reused");
  });
});
