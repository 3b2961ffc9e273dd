import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { readProviderStatuses } from "@/lib/domain/channels/provider-statuses";
import { channelThroughput, throughputMpsOfLevel } from "@/lib/domain/channels/throughput";
import { createProviderPort } from "@/lib/ports/provider";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";

/**
 * A PLATFORM_A channel's throughput (channels.throughput_mps): the number's throughput level as the
 * provider reports it, read at connect and again when GET /readiness finds the statuses stale.
 */
let h: Harness;
let seeded: Seeded;
let numbers = 0;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
});
afterAll(() => h?.close());

function nextNumber(): string {
  return `${process.pid}-${++numbers}`;
}

async function connect(key: string, n = nextNumber()) {
  const phoneNumberId = `pn-mps-${n}`;
  const res = await h.app.call("POST", "/channels", {
    key,
    body: { platform: "PLATFORM_A", credentials: { phone_number_id: phoneNumberId, business_account_id: `waba-mps-${n}`, access_token: "t" } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id as string, phoneNumberId };
}

const row = async (id: string) => (await h.app.db.select().from(channels).where(eq(channels.id, id)))[0]!;

function setRate(phoneNumberId: string, messagesPerSecond: number) {
  return fetch(`${h.server.url}/api/simulator/control/numbers/throughput`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone_number_id: phoneNumberId, messages_per_second: messagesPerSecond }),
  }).then((r) => r.json());
}

describe("throughput_mps of a connected number", () => {
  it("is 80 (STANDARD) at connect, 1000 once the provider reports HIGH and the statuses are read again", async () => {
    const channel = await connect(seeded.key);
    expect(await row(channel.id)).toMatchObject({ throughputMps: 80 });

    expect(await setRate(channel.phoneNumberId, 1000)).toMatchObject({ level: "HIGH" });
    await h.app.call("GET", "/readiness", { key: seeded.key });
    expect((await row(channel.id)).throughputMps).toBe(80); // read 0 minutes ago: not read again

    const stale = new Date(h.app.clock.now().getTime() - 11 * 60_000);
    await h.app.db.update(channels).set({ providerStatusesCheckedAt: stale }).where(eq(channels.id, channel.id));
    await h.app.call("GET", "/readiness", { key: seeded.key });
    expect(await row(channel.id)).toMatchObject({ throughputMps: 1000, providerStatusesCheckedAt: h.app.clock.now() });
  });

  it("a number already HIGH at connect stores 1000", async () => {
    const project = await h.app.seed({ orgName: "High throughput" });
    const n = nextNumber();
    await setRate(`pn-mps-${n}`, 1000);
    const channel = await connect(project.key, n);
    expect((await row(channel.id)).throughputMps).toBe(1000);
  });
});

describe("readProviderStatuses: the throughput level", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  const account = { businessAccountId: "waba-1", phoneNumberId: "pn-1", accessToken: "t" };
  function ctxAnswering(phone: Record<string, unknown>) {
    const fetch = (async (url: string | URL | Request) => {
      const id = new URL(String(url)).pathname.split("/").pop()!;
      expect(new URL(String(url)).searchParams.get("fields")).toBe(
        id === "pn-1" ? "status,throughput" : "account_review_status,business_verification_status,primary_funding_id",
      );
      return new Response(JSON.stringify(id === "pn-1" ? { id, ...phone } : { id, account_review_status: "APPROVED" }), { status: 200 });
    }) as typeof globalThis.fetch;
    return { ports: { provider: createProviderPort({ graphUrl: "https://graph.example/v23.0", fetch }) }, now } as Parameters<typeof readProviderStatuses>[0];
  }

  it("HIGH → 1000, STANDARD → 80, NOT_APPLICABLE → null; an answer without throughput leaves the column alone", async () => {
    const mps = async (phone: Record<string, unknown>) => {
      const columns = await readProviderStatuses(ctxAnswering(phone), account);
      return "throughputMps" in columns ? columns.throughputMps : "unset";
    };
    expect(await mps({ status: "CONNECTED", throughput: { level: "HIGH" } })).toBe(1000);
    expect(await mps({ status: "CONNECTED", throughput: { level: "STANDARD" } })).toBe(80);
    expect(await mps({ status: "CONNECTED", throughput: { level: "NOT_APPLICABLE" } })).toBeNull();
    expect(await mps({ status: "CONNECTED", throughput: { level: "SOMETHING_NEW" } })).toBeNull();
    expect(await mps({ status: "CONNECTED" })).toBe("unset");
    expect(await mps({ status: "CONNECTED", throughput: "HIGH" })).toBe("unset");
  });
});

describe("channelThroughput", () => {
  it("is the stored rate, else the 80 default", () => {
    expect(channelThroughput({ throughputMps: 1000 })).toBe(1000);
    expect(channelThroughput({ throughputMps: 80 })).toBe(80);
    expect(channelThroughput({ throughputMps: null })).toBe(80);
    expect(channelThroughput({ throughputMps: 0 })).toBe(80);
    expect(throughputMpsOfLevel("HIGH")).toBe(1000);
    expect(throughputMpsOfLevel(null)).toBeNull();
  });
});
