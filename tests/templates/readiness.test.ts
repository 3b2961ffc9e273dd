import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { readProviderStatuses } from "@/lib/domain/channels/provider-statuses";
import { createProviderPort } from "@/lib/ports/provider";
import { startHarness, type Harness } from "../messages/support";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { createTemplate, templateBody } from "./support";

/**
 * can_submit_templates on a dedicated number: the provider statuses are read at connect (the
 * simulator reports a number in good standing) and read again by GET /readiness once stale.
 */
let h: Harness;
let seeded: Seeded;
let numbers = 0;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
});
afterAll(() => h.close());

async function connect(key = seeded.key) {
  const n = `${process.pid}-${++numbers}`;
  const res = await h.app.call("POST", "/channels", {
    key,
    body: { platform: "PLATFORM_A", credentials: { phone_number_id: `pn-ready-${n}`, business_account_id: `waba-ready-${n}`, access_token: "t" } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; publish_readiness: Record<string, unknown> };
}

const row = async (id: string) => (await h.app.db.select().from(channels).where(eq(channels.id, id)))[0]!;

const READY_WIRE = {
  mode: "dedicated",
  can_publish_flows: true,
  can_submit_templates: true,
  business_verification_status: "verified",
  account_review_status: "APPROVED",
  phone_number_status: "CONNECTED",
  blockers: [],
};

describe("connecting a PLATFORM_A number to the simulator", () => {
  it("reads the provider statuses: publish_readiness can submit templates, and a template can be submitted", async () => {
    const channel = await connect();
    expect(channel.publish_readiness).toEqual(READY_WIRE);
    expect((await h.app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body.publish_readiness).toEqual(READY_WIRE);
    const stored = await row(channel.id);
    expect(stored).toMatchObject({ paymentStatus: "active", providerStatusesCheckedAt: h.app.clock.now() });
    const template = await createTemplate(h, seeded.key, templateBody(channel.id, { name: "ready_check" }));
    expect(template).toMatchObject({ status: "PENDING", channel_id: channel.id });
  });
});

describe("GET /readiness", () => {
  it("reads statuses older than 10 minutes again: an account approved since the connect becomes ready", async () => {
    const project = await h.app.seed({ orgName: "Approved later" });
    const channel = await connect(project.key);
    const stale = new Date(h.app.clock.now().getTime() - 11 * 60_000);
    await h.app.db.update(channels).set({ accountReviewStatus: "PENDING", providerStatusesCheckedAt: stale }).where(eq(channels.id, channel.id));
    const before = await h.app.call("GET", `/channels/${channel.id}`, { key: project.key });
    expect(before.body.publish_readiness).toMatchObject({ can_submit_templates: false, blockers: ["ACCOUNT_NOT_APPROVED"] });

    const res = await h.app.call("GET", "/readiness", { key: project.key });
    expect(res.status).toBe(200);
    const after = await h.app.call("GET", `/channels/${channel.id}`, { key: project.key });
    expect(after.body.publish_readiness).toEqual(READY_WIRE);
    expect(await row(channel.id)).toMatchObject({ accountReviewStatus: "APPROVED", providerStatusesCheckedAt: h.app.clock.now() });
  });

  it("keeps statuses read in the last 10 minutes, so a number the provider holds back stays blocked", async () => {
    const project = await h.app.seed({ orgName: "Recently read" });
    const channel = await connect(project.key);
    await h.app.db.update(channels).set({ phoneNumberStatus: "FLAGGED" }).where(eq(channels.id, channel.id));
    await h.app.call("GET", "/readiness", { key: project.key });
    const res = await h.app.call("GET", `/channels/${channel.id}`, { key: project.key });
    expect(res.body.publish_readiness).toMatchObject({ can_publish_flows: false, can_submit_templates: false, blockers: ["PHONE_NOT_CONNECTED"] });
  });

  it("does not read a disconnected number again", async () => {
    const project = await h.app.seed({ orgName: "Gone" });
    const channel = await connect(project.key);
    expect((await h.app.call("DELETE", `/channels/${channel.id}`, { key: project.key })).status).toBe(200);
    await h.app.db.update(channels).set({ accountReviewStatus: "PENDING", providerStatusesCheckedAt: null }).where(eq(channels.id, channel.id));
    await h.app.call("GET", "/readiness", { key: project.key });
    expect(await row(channel.id)).toMatchObject({ accountReviewStatus: "PENDING", providerStatusesCheckedAt: null });
  });
});

describe("the simulator's phone number and business account reads", () => {
  const get = (path: string, token = true) =>
    fetch(`${h.server.url}/api/simulator/graph/${path}`, { headers: token ? { authorization: "Bearer t" } : {} }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, any>,
    }));

  it("answers the fields asked of a number, and of a business account", async () => {
    expect(await get("pn-any?fields=status,name_status,quality_rating")).toEqual({
      status: 200,
      body: { id: "pn-any", status: "CONNECTED", name_status: "APPROVED", quality_rating: "GREEN" },
    });
    const account = await get("waba-any?fields=id,account_review_status,business_verification_status,primary_funding_id");
    expect(account.status).toBe(200);
    expect(account.body).toEqual({
      id: "waba-any",
      account_review_status: "APPROVED",
      business_verification_status: "verified",
      primary_funding_id: expect.stringMatching(/^\d+$/),
    });
  });

  it("wants the Bearer token, and leaves other reads (a flow's fields, a mix of nodes) to the other routes", async () => {
    expect((await get("pn-any?fields=status", false)).body.error.code).toBe(190);
    for (const path of ["unknown-flow?fields=id,name,status,validation_errors", "pn-any?fields=status,account_review_status", "pn-any"]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code, path).toBe(100);
    }
  });
});

describe("readProviderStatuses against provider answers", () => {
  /** The adapter over a provider that answers each path as given (status 200 unless an error body). */
  function provider(answers: Record<string, unknown>) {
    const fetch = (async (url: string | URL | Request) => {
      const path = new URL(String(url)).pathname.split("/").pop()!;
      const body = answers[path];
      const status = body && typeof body === "object" && "error" in body ? 403 : 200;
      return new Response(JSON.stringify(body ?? { error: { message: "no", code: 100 } }), { status: body ? status : 400 });
    }) as typeof globalThis.fetch;
    return { ports: { provider: createProviderPort({ graphUrl: "https://graph.example/v23.0", fetch }) } } as Parameters<typeof readProviderStatuses>[0];
  }
  const account = { businessAccountId: "waba-1", phoneNumberId: "pn-1", accessToken: "t" };
  const now = new Date("2026-06-01T00:00:00Z");

  it("maps the business account's answer: no funding source is no payment method", async () => {
    const ctx = { ...provider({ "pn-1": { id: "pn-1", status: "PENDING" }, "waba-1": { id: "waba-1", account_review_status: "APPROVED" } }), now };
    expect(await readProviderStatuses(ctx, account)).toEqual({
      phoneNumberStatus: "PENDING",
      accountReviewStatus: "APPROVED",
      businessVerificationStatus: null,
      paymentStatus: "none",
      providerStatusesCheckedAt: now,
    });
  });

  it("sets only the half the provider answered, and only the checked time when it answers nothing", async () => {
    const half = { ...provider({ "pn-1": { id: "pn-1", status: "CONNECTED" }, "waba-1": { error: { message: "(#200) Permissions error", code: 200 } } }), now };
    expect(await readProviderStatuses(half, account)).toEqual({ phoneNumberStatus: "CONNECTED", providerStatusesCheckedAt: now });
    expect(await readProviderStatuses({ ...provider({}), now }, account)).toEqual({ providerStatusesCheckedAt: now });
  });
});

describe("a provider that does not answer at connect", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(); // its Graph URL refuses connections
  });
  afterAll(() => app.close());

  it("still connects; the statuses stay unknown, so templates wait", async () => {
    const project = await app.seed();
    const res = await app.call("POST", "/channels", {
      key: project.key,
      body: { platform: "PLATFORM_A", credentials: { phone_number_id: "pn-down", business_account_id: "waba-down", access_token: "t" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.publish_readiness).toMatchObject({
      can_publish_flows: true,
      can_submit_templates: false,
      business_verification_status: null,
      account_review_status: null,
      phone_number_status: null,
      blockers: ["META_ACCOUNT_STATUS_UNKNOWN", "PAYMENT_STATUS_UNKNOWN"],
    });
  });
});
