/**
 * POST /messages takes its Idempotency-Key claim in the send's first read (lib/api/idempotency-claim.ts
 * FoldedClaim, messages/send-context.ts): one round trip fewer per send, the same answers. The
 * replay, reuse and pacing-retry answers through this path are in send-pacing.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { idempotencyKeys, messages } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { setOrganizationPlan } from "@/lib/domain/organizations";
import { upsertPlan } from "@/lib/domain/plans";
import type { Seeded } from "../support/app";
import { expectError } from "../support/wire";
import type { Harness } from "./support";
import { executedDuring } from "../support/statements";
import { joinCodeOf, joinTesters, send, startSendHarness, testerNumber, type Joined } from "./send-support";

let h: Harness;
let acme: Seeded;
let joined: Joined;
const ONE_READ = testerNumber();
const QUOTA = testerNumber();
const EARLIER = testerNumber();

beforeAll(async () => {
  h = await startSendHarness();
  acme = await h.app.seed({ orgName: "Fold Co" });
  joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), [ONE_READ, QUOTA, EARLIER]);
});
afterAll(() => h?.close());

const reply = (tester: string, text: string, idempotencyKey: string) =>
  send(h, acme.key, { channel_id: SANDBOX_CHANNEL_ID, conversation_id: joined.conversations[tester], text }, { "Idempotency-Key": idempotencyKey });

const claimOf = async (key: string) =>
  h.app.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.projectId, acme.projectId), eq(idempotencyKeys.key, key)));
const messagesWith = async (key: string) =>
  h.app.db
    .select()
    .from(messages)
    .where(and(eq(messages.projectId, acme.projectId), eq(messages.idempotencyKey, key)));

describe("the claim in the send's first read", () => {
  it("a send with a new key claims it in the read: no statement of its own, and the answer is stored with the message", async () => {
    const key = `fold-${randomUUID()}`;
    const { result: res, executed } = await executedDuring(h.app.db, () => reply(ONE_READ, "Claimed in the read", key));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const claims = executed.filter((text) => text.includes('insert into "idempotency_keys"'));
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatch(/^with "claim" as \(insert into "idempotency_keys"/);
    const [record] = await claimOf(key);
    expect(record).toMatchObject({ state: "completed", responseStatus: 200 });
    expect(await messagesWith(key)).toHaveLength(1);
  });

  it("a monthly quota refusal after the read releases the claim: nothing is written, and the same key works once the quota allows", async () => {
    const key = `quota-${randomUUID()}`;
    await upsertPlan(h.app.db, {
      id: "fold-spent",
      name: "Spent",
      requestsPerWindow: 1000,
      windowSeconds: 60,
      monthlyRequests: 0,
      mediaRetentionSeconds: 86_400,
    });
    await setOrganizationPlan(h.app.db, acme.orgId, "fold-spent", h.app.clock.now());
    try {
      expectError(await reply(QUOTA, "Over the quota", key), 429, "monthly_quota_exceeded");
      expect(await claimOf(key)).toHaveLength(0);
      expect(await messagesWith(key)).toHaveLength(0);
    } finally {
      await setOrganizationPlan(h.app.db, acme.orgId, "free", h.app.clock.now());
    }
    const retried = await reply(QUOTA, "Over the quota", key);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await messagesWith(key)).toHaveLength(1);
  });

  it("a key whose record is gone but whose message exists: the read claims it and answers with that message, nothing sent twice", async () => {
    const key = `earlier-${randomUUID()}`;
    const original = await reply(EARLIER, "Sent once", key);
    expect(original.status).toBe(200);
    await h.app.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.projectId, acme.projectId), eq(idempotencyKeys.key, key)));
    const again = await reply(EARLIER, "Sent once", key);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.id).toBe(original.body.id);
    expect(await messagesWith(key)).toHaveLength(1);
    expect(await claimOf(key)).toMatchObject([{ state: "completed", responseStatus: 200 }]);
  });
});
