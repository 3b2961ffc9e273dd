import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { media } from "@/lib/db/schema";
import { expireMedia } from "@/lib/domain/media/cache";
import type { Seeded } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { startHarness, type Harness } from "../messages/support";

let h: Harness;
let receiver: Receiver;
let acme: Seeded;
const TESTER = "15553334444";
// A small real PNG header + random body: bytes the test can compare exactly.
const IMAGE = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), randomBytes(4096)]);

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
  acme = await h.app.seed();
  await h.app.call("PATCH", `/projects/${acme.projectId}`, { key: acme.key, body: { webhook_url: `${receiver.url}/in` } });
  await h.join(acme.projectId, TESTER);
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

async function upload(bytes: Buffer, contentType: string): Promise<string> {
  const res = await fetch(`${h.server.url}/api/simulator/customer/media`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** The signed URL's path and query, fetched from the test server (it serves what the app serves). */
function local(url: string): string {
  const u = new URL(url);
  return `${h.server.url}${u.pathname}${u.search}`;
}

const receivedOf = (text: string | null, type: string) =>
  receiver.received
    .map((r) => JSON.parse(r.raw))
    .filter((b) => b.event === "message.received" && b.payload.type === type && (text === null || b.payload.messages[0].media?.caption === text));

describe("an image from the customer", () => {
  it("arrives in message.received with a signed URL whose bytes equal the original; no credentials needed; altered fails; expired after retention", async () => {
    const mediaId = await upload(IMAGE, "image/png");
    await h.customer({ from: TESTER, type: "image", media: { id: mediaId, mime_type: "image/png", caption: "my receipt" } });
    await h.settle(50);
    const [delivered] = receivedOf("my receipt", "image");
    expect(delivered).toBeDefined();
    const m = delivered!.payload.media;
    expect(m).toMatchObject({
      type: "image",
      status: "available",
      accessible: true,
      mime_type: "image/png",
      file_size: IMAGE.length,
      provider: "platform_a",
      provider_media_id: mediaId,
      platform_a_media_id: mediaId,
      access_policy: "signed_url",
      error_code: null,
    });
    expect(delivered!.payload.assets).toEqual([m]);
    expect(delivered!.payload.messages[0].media).toEqual(m);
    // Retention: 24 h on the free plan, from the time it was cached.
    expect(new Date(m.expires_at).getTime() - h.app.clock.now().getTime()).toBeGreaterThan(23.9 * 3600_000);

    const download = await fetch(local(m.url));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await download.arrayBuffer()).equals(IMAGE)).toBe(true);

    const altered = new URL(local(m.url));
    altered.searchParams.set(
      "token",
      altered.searchParams.get("token")!.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
    );
    expect((await fetch(altered)).status).toBe(403);

    // Reading the message later signs a fresh URL while the object is retained.
    const conversation = (await h.app.call("GET", "/conversations", { key: acme.key })).body.data[0].id;
    h.app.clock.advance(2 * 3600_000);
    const later = (await h.app.call("GET", `/conversations/${conversation}/messages`, { key: acme.key })).body.data.find(
      (x: { type: string }) => x.type === "image",
    );
    expect(later.media.url).not.toBe(m.url);
    expect((await fetch(local(later.media.url))).status).toBe(200);
    expect((await fetch(local(m.url))).status).toBe(403);

    // Past retention the job deletes the bytes and marks it expired; the message shows it.
    h.app.clock.advance(23 * 3600_000);
    expect(await expireMedia(h.app.systemCtx())).toBeGreaterThanOrEqual(1);
    const expired = (await h.app.call("GET", `/conversations/${conversation}/messages`, { key: acme.key })).body.data.find(
      (x: { type: string }) => x.type === "image",
    );
    expect(expired.media).toMatchObject({ status: "expired", url: null, accessible: false });
    const [row] = await h.app.db.select().from(media).where(eq(media.id, m.id));
    expect(row!.status).toBe("expired");
    expect(await h.app.runtime.ports.storage.stat(row!.storageKey!)).toBeNull();
  });

  it("when caching fails, the webhook is still delivered with status unavailable and url null", async () => {
    // Announced as an image, served as an HTML page: not kept.
    const html = await upload(Buffer.from("<html>not an image</html>"), "text/html");
    await h.customer({ from: TESTER, type: "image", media: { id: html, mime_type: "image/jpeg", caption: "lost file" } });
    await h.settle(50);
    const [delivered] = receivedOf("lost file", "image");
    expect(delivered).toBeDefined();
    expect(delivered!.payload.media).toMatchObject({
      status: "unavailable",
      url: null,
      accessible: false,
      provider_media_id: html,
      error_code: "content_type_mismatch",
    });
  });
});
