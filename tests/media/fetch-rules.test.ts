import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { events, webhookDeliveries } from "@/lib/db/schema";
import type { MediaRow } from "@/lib/db/schema/media";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { emitEvent } from "@/lib/domain/events";
import { fetchInboundMedia, MediaFetchError, sizeCapOf } from "@/lib/domain/media/fetch";
import { releaseEvent } from "@/lib/domain/media/cache";
import { safeRequest, type SafeResponse } from "@/lib/ports/net/safe-request";
import { createTestApp, type TestApp } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";

const file = (over: Partial<MediaRow>): MediaRow =>
  ({
    id: "med_x",
    projectId: "p",
    messageId: "m",
    provider: "platform_c",
    providerMediaId: null,
    sourceUrl: null,
    type: "image",
    mimeType: "image/png",
    fileName: null,
    fileSize: null,
    sha256: null,
    storageKey: null,
    status: "unavailable",
    errorCode: "caching",
    attempts: 0,
    cachedAt: null,
    expiresAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...over,
  }) as MediaRow;
const unusedGraph = { graphUrl: "http://unused", sandboxAccessToken: "unused" };
const channel = { platform: "PLATFORM_C", isSandbox: false, providerSenderId: "page", credentialsSealed: null } as unknown as ChannelRow;
const answer = (status: number, body: Buffer, contentType: string, truncated = false): SafeResponse => ({
  status,
  headers: { "content-type": contentType },
  body,
  truncated,
  durationMs: 1,
});

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

describe("fetching an inbound file", () => {
  it("downloads an attachment URL and checks it is the announced kind", async () => {
    receiver.reply = () => ({ status: 200, headers: { "content-type": "image/png" }, body: "PNGDATA" });
    const got = await fetchInboundMedia(file({ sourceUrl: `${receiver.url}/a.png` }), channel, unusedGraph);
    expect(got.bytes.toString()).toBe("PNGDATA");
    expect(got.contentType).toBe("image/png");
    receiver.reply = () => ({ status: 200, headers: { "content-type": "text/html" }, body: "<html>" });
    await expect(fetchInboundMedia(file({ sourceUrl: `${receiver.url}/b` }), channel, unusedGraph)).rejects.toMatchObject({
      code: "content_type_mismatch",
      retryable: false,
    });
  });

  it("refuses files over the type's cap without keeping them", async () => {
    const cap = sizeCapOf({ provider: "platform_c", type: "image" });
    const oversized = async () => answer(200, Buffer.alloc(cap + 1), "image/png", true);
    await expect(
      fetchInboundMedia(file({ sourceUrl: "https://cdn.example/x.png" }), channel, unusedGraph, oversized as typeof safeRequest),
    ).rejects.toMatchObject({ code: "too_large", retryable: false });
  });

  it("goes through the SSRF guard: a private attachment URL is blocked when private networks are not allowed", async () => {
    const guarded: typeof safeRequest = (url, options) => safeRequest(url, { ...options, allowPrivateNetwork: false });
    await expect(fetchInboundMedia(file({ sourceUrl: "http://169.254.169.254/latest/meta-data" }), channel, unusedGraph, guarded)).rejects.toMatchObject({
      code: "blocked",
      retryable: false,
    });
  });

  it("treats provider 5xx and network faults as retryable, 404 as final", async () => {
    const failWith = (status: number) => (async () => answer(status, Buffer.from(""), "text/plain")) as typeof safeRequest;
    await expect(fetchInboundMedia(file({ sourceUrl: "https://cdn.example/x" }), channel, unusedGraph, failWith(503))).rejects.toMatchObject({
      retryable: true,
    });
    await expect(fetchInboundMedia(file({ sourceUrl: "https://cdn.example/x" }), channel, unusedGraph, failWith(404))).rejects.toMatchObject({
      code: "not_found",
      retryable: false,
    });
    const refused: typeof safeRequest = (url, options) => safeRequest(url, { ...options, allowPrivateNetwork: true });
    await expect(fetchInboundMedia(file({ sourceUrl: "http://127.0.0.1:9/x" }), channel, unusedGraph, refused)).rejects.toBeInstanceOf(MediaFetchError);
  });
});

describe("the release deadline", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it("sends a held message.received once, whether the files settle first or the deadline fires first", async () => {
    const seeded = await app.seed();
    await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: `${receiver.url}/hook` } });
    const eventId = (await emitEvent(app.systemCtx(), {
      project: { id: seeded.projectId },
      type: "message.received",
      payload: { text: null },
      at: app.clock.now(),
      defer: true,
    }))!;
    const deliveries = () => app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
    expect(await deliveries()).toHaveLength(0);
    await Promise.all([releaseEvent(app.systemCtx(), eventId), releaseEvent(app.systemCtx(), eventId)]);
    await releaseEvent(app.systemCtx(), eventId);
    expect(await deliveries()).toHaveLength(1);
    const [event] = await app.db.select().from(events).where(eq(events.id, eventId));
    expect(event!.deliver).toBe(true);
  });
});
