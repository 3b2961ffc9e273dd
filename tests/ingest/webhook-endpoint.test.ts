import { MAX_PROVIDER_BODY_BYTES } from "@/lib/api/provider-webhook";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { inboundWebhooks } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { SIMULATOR_VERIFY_TOKEN, signPayload, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import type { Seeded } from "../support/app";
import { adapted, joinSandbox, messageCount, postProvider, rowByProviderId, startHarness, textA, webhookRows, type Harness, type Slug } from "./harness";

let h: Harness;
let acme: Seeded;
const TESTER = "15551110001";
const SLUGS: Slug[] = ["platform-a", "platform-b", "platform-c"];
const saved = { ...process.env };

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  await joinSandbox(h, acme.projectId, TESTER);
});
afterAll(() => h?.close());
afterEach(() => {
  for (const key of [
    "PLATFORM_A_VERIFY_TOKEN",
    "PLATFORM_B_VERIFY_TOKEN",
    "PLATFORM_C_VERIFY_TOKEN",
    "PLATFORM_A_APP_SECRET",
    "PLATFORM_B_APP_SECRET",
    "PLATFORM_C_APP_SECRET",
  ]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

function handshake(slug: string, params: Record<string, string>) {
  return fetch(`${h.server.url}/api/providers/${slug}/webhook?${new URLSearchParams(params)}`);
}

/** A body each platform's normaliser understands (content does not matter for the endpoint). */
function bodyFor(slug: Slug, id: string) {
  if (slug === "platform-a") return textA(SANDBOX_PHONE_NUMBER_ID, TESTER, id, "endpoint check");
  return slug === "platform-b" ? adapted("instagram-text") : adapted("messenger-text");
}

async function storedCount(): Promise<number> {
  return (await webhookRows(h)).length;
}

describe("GET: the provider's subscription handshake", () => {
  for (const slug of SLUGS) {
    it(`${slug}: hub.mode=subscribe with the verify token echoes hub.challenge as text`, async () => {
      const res = await handshake(slug, { "hub.mode": "subscribe", "hub.verify_token": SIMULATOR_VERIFY_TOKEN, "hub.challenge": "1158201444" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await res.text()).toBe("1158201444");
    });

    it(`${slug}: a wrong token, another mode or no challenge is 403`, async () => {
      const cases: Record<string, string>[] = [
        { "hub.mode": "subscribe", "hub.verify_token": "nope", "hub.challenge": "1" },
        { "hub.mode": "unsubscribe", "hub.verify_token": SIMULATOR_VERIFY_TOKEN, "hub.challenge": "1" },
        { "hub.mode": "subscribe", "hub.verify_token": SIMULATOR_VERIFY_TOKEN },
        {},
      ];
      for (const params of cases) {
        const res = await handshake(slug, params);
        expect(res.status, JSON.stringify(params)).toBe(403);
        expect(await res.text()).not.toContain("1158201444");
      }
    });
  }

  it("a configured PLATFORM_B_VERIFY_TOKEN replaces the development token for that platform only", async () => {
    process.env.PLATFORM_B_VERIFY_TOKEN = "b-configured-token";
    const ok = await handshake("platform-b", { "hub.mode": "subscribe", "hub.verify_token": "b-configured-token", "hub.challenge": "42" });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("42");
    expect((await handshake("platform-b", { "hub.mode": "subscribe", "hub.verify_token": SIMULATOR_VERIFY_TOKEN, "hub.challenge": "42" })).status).toBe(403);
    expect((await handshake("platform-c", { "hub.mode": "subscribe", "hub.verify_token": "b-configured-token", "hub.challenge": "42" })).status).toBe(403);
  });
});

describe("POST: signature over the raw body, then store and answer at once", () => {
  for (const slug of SLUGS) {
    it(`${slug}: a missing, malformed or wrong X-Hub-Signature-256 is 401 and stores nothing`, async () => {
      const body = JSON.stringify(bodyFor(slug, `wamid.ENDPOINT-FORGED-${slug}`));
      const before = await storedCount();
      const other = SLUGS.find((s) => s !== slug)!;
      const cases: (string | null)[] = [
        null,
        "",
        "sha256=",
        "sha1=" + signPayload(simulatorAppSecret("PLATFORM_A"), body).slice(7),
        signPayload("wrong-secret", body),
        // Signed with another platform's app secret.
        signPayload(simulatorAppSecret(other === "platform-a" ? "PLATFORM_A" : other === "platform-b" ? "PLATFORM_B" : "PLATFORM_C"), body),
        // Right secret, other bytes.
        signPayload(simulatorAppSecret(slug === "platform-a" ? "PLATFORM_A" : slug === "platform-b" ? "PLATFORM_B" : "PLATFORM_C"), body + " "),
      ];
      for (const signature of cases) {
        const res = await postProvider(h, slug, body, { signature });
        expect(res.status, String(signature)).toBe(401);
        expect((await res.json()).error).toBe("invalid_signature");
      }
      expect(await storedCount()).toBe(before);
      expect(await h.app.runtime.ports.queue.drain()).toBe(0);
    });

    it(`${slug}: a valid delivery is 200 at once, stored raw with its job, processed by the job`, async () => {
      const body = JSON.stringify(bodyFor(slug, `wamid.ENDPOINT-OK-${slug}`));
      const started = performance.now();
      const res = await postProvider(h, slug, body);
      const took = performance.now() - started;
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("EVENT_RECEIVED");
      expect(took).toBeLessThan(2000);

      const rows = await webhookRows(h);
      const row = rows.at(-1)!;
      expect(row).toMatchObject({
        platform: slug === "platform-a" ? "PLATFORM_A" : slug === "platform-b" ? "PLATFORM_B" : "PLATFORM_C",
        body,
        processedAt: null,
        error: null,
      });
      // Nothing is parsed or applied inside the request: the job does it.
      expect(await h.app.runtime.ports.queue.drain()).toBeGreaterThanOrEqual(1);
      const [done] = await h.app.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, row.id));
      expect(done!.processedAt).toBeInstanceOf(Date);
      expect(done!.error).toBeNull();
    });

    it(`${slug}: a correctly signed body that is not JSON is 200, recorded with an error, never a crash`, async () => {
      for (const body of ["this is not json", '{"object":', ""]) {
        const res = await postProvider(h, slug, body);
        expect(res.status, JSON.stringify(body)).toBe(200);
        const row = (await webhookRows(h)).at(-1)!;
        expect(row.body).toBe(body);
        await h.app.runtime.ports.queue.drain();
        const [done] = await h.app.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, row.id));
        expect(done).toMatchObject({ error: "Body is not JSON" });
        expect(done!.processedAt).toBeInstanceOf(Date);
      }
    });
  }

  it("the signature is checked on the bytes as sent: invalid UTF-8 and NUL bytes, correctly signed, are recorded", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x00, 0x22, 0x7d]); // {"a":"\xff\xfe\0"}
    const res = await postProvider(h, "platform-a", bytes, { signature: signPayload(simulatorAppSecret("PLATFORM_A"), bytes) });
    expect(res.status).toBe(200);
    const row = (await webhookRows(h)).at(-1)!;
    expect(row.body.startsWith('{"a":"')).toBe(true);
    await h.app.runtime.ports.queue.drain();
    const [done] = await h.app.db.select().from(inboundWebhooks).where(eq(inboundWebhooks.id, row.id));
    expect(done!.processedAt).toBeInstanceOf(Date);

    // The same bytes signed as a decoded string would be are refused: the raw bytes are what counts.
    const decoded = new TextDecoder().decode(bytes);
    const forged = await postProvider(h, "platform-a", bytes, { signature: signPayload(simulatorAppSecret("PLATFORM_A"), decoded) });
    expect(forged.status).toBe(401);
  });

  // Postgres text/jsonb cannot hold NUL or a lone surrogate: the message is stored with U+FFFD in their
  // place, never dropped and never a job that fails on every retry.
  for (const [name, text, stored] of [
    ["an escaped NUL", "before\u0000after", "before\uFFFDafter"],
    ["a lone high surrogate", "before\ud800after", "before\uFFFDafter"],
    ["a lone low surrogate", "\udc00x", "\uFFFDx"],
    ["a high surrogate at the very end", "end\udbff", "end\uFFFD"],
    ["a valid surrogate pair (kept as it is)", "pair \ud83d\ude00", "pair \ud83d\ude00"],
  ] as const) {
    it(`${name} inside an inbound message is stored (U+FFFD in its place), not a failed job`, async () => {
      const id = `wamid.ENDPOINT-BAD-${name.replace(/\W+/g, "-")}`;
      // JSON.stringify escapes the NUL and the lone surrogate (\u0000, \ud800) as a provider's JSON would.
      const res = await postProvider(h, "platform-a", textA(SANDBOX_PHONE_NUMBER_ID, TESTER, id, text));
      expect(res.status).toBe(200);
      await h.app.runtime.ports.queue.drain();
      const [row] = await rowByProviderId(h, SANDBOX_CHANNEL_ID, id);
      expect(row!.content).toBe(stored);
      const envelope = (await webhookRows(h)).at(-1)!;
      expect(envelope.error).toBeNull();
      expect(envelope.processedAt).toBeInstanceOf(Date);
    });
  }

  it("a body past the provider's maximum is refused with 413 before anything is stored", async () => {
    const before = (await webhookRows(h)).length;
    const huge = JSON.stringify({ object: "whatsapp_business_account", pad: "x".repeat(MAX_PROVIDER_BODY_BYTES) });
    const res = await postProvider(h, "platform-a", huge);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "payload_too_large", max_bytes: MAX_PROVIDER_BODY_BYTES });
    expect((await webhookRows(h)).length).toBe(before);
  });

  it("valid JSON that is no provider payload is processed as nothing", async () => {
    const before = await messageCount(h);
    for (const body of ['{"hello":"world"}', "null", "[1,2]", '{"object":"whatsapp_business_account","entry":[{"changes":[{"value":{}}]}]}']) {
      expect((await postProvider(h, "platform-a", body)).status).toBe(200);
    }
    await h.app.runtime.ports.queue.drain();
    expect(await messageCount(h)).toBe(before);
    const last = (await webhookRows(h)).slice(-4);
    expect(last.every((r) => r.processedAt !== null && r.error === null)).toBe(true);
  });

  it("a configured PLATFORM_C_APP_SECRET is the only one PLATFORM_C deliveries are checked against", async () => {
    process.env.PLATFORM_C_APP_SECRET = "c-configured-app-secret";
    const body = JSON.stringify(adapted("messenger-text"));
    expect((await postProvider(h, "platform-c", body, { secret: "c-configured-app-secret" })).status).toBe(200);
    expect((await postProvider(h, "platform-c", body)).status).toBe(401);
    // Other platforms keep theirs.
    expect((await postProvider(h, "platform-b", JSON.stringify(adapted("instagram-text")))).status).toBe(200);
    await h.app.runtime.ports.queue.drain();
  });
});
