import { and, asc, eq, lte } from "drizzle-orm";
import { channels, events, media, messages, organizations, plans, projects, webhookDeliveries } from "@/lib/db/schema";
import type { MediaRow } from "@/lib/db/schema/media";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import type { SystemCtx } from "@/lib/domain/context";
import { scheduleDelivery } from "@/lib/domain/webhooks/enqueue";
import { replaceEventPayload } from "@/lib/domain/events";
import { setMessageMedia } from "@/lib/domain/messages/row-writes";
import type { InboundMedia } from "@/lib/domain/ingest/types";
import { fetchInboundMedia, MediaFetchError } from "./fetch";
import { publishInboxEvent } from "@/lib/domain/inbox-live";
import { extrasOf, mediaWire } from "./wire";

export const MEDIA_CACHE_JOB = "media.cache";
export const MEDIA_RELEASE_JOB = "media.release";
export const MEDIA_EXPIRE_JOB = "media.expire";
/** How long message.received waits for its files before it is delivered anyway. */
const RELEASE_AFTER_MS = 5_000;

/**
 * At ingest, inside the ingest transaction (ctx.db): a media row per file (status unavailable,
 * error_code "caching"), a cache job per file, and the release deadline for the event.
 */
export async function registerInboundMedia(
  ctx: SystemCtx,
  input: { projectId: string; messageId: string; files: InboundMedia[]; eventId: string | null; now: Date },
): Promise<MediaRow[]> {
  const { db: tx, ports } = ctx;
  const rows: MediaRow[] = [];
  for (const file of input.files) {
    const [row] = await tx
      .insert(media)
      .values({
        id: newId("media", input.now.getTime()),
        projectId: input.projectId,
        messageId: input.messageId,
        provider: file.provider,
        providerMediaId: file.provider_media_id,
        sourceUrl: file.source_url,
        type: file.type,
        mimeType: file.mime_type,
        fileName: file.file_name,
        sha256: file.sha256,
        status: "unavailable",
        errorCode: "caching",
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning();
    rows.push(row!);
    await ports.queue.send(MEDIA_CACHE_JOB, { mediaId: row!.id, eventId: input.eventId }, { tx });
  }
  if (input.eventId) await ports.queue.send(MEDIA_RELEASE_JOB, { eventId: input.eventId }, { tx, startAfter: RELEASE_AFTER_MS });
  return rows;
}

/** The media.cache job: fetch, store, mark available (or, after the last retry, unavailable), then release. */
export async function cacheMedia(
  ctx: SystemCtx,
  job: { mediaId: string; eventId: string | null },
  attempt: { retryCount: number; retryLimit: number },
): Promise<void> {
  const [row] = await ctx.db
    .select({ media, channel: channels, retention: plans.mediaRetentionSeconds })
    .from(media)
    .innerJoin(messages, eq(messages.id, media.messageId))
    .innerJoin(channels, eq(channels.id, messages.channelId))
    .innerJoin(projects, eq(projects.id, media.projectId))
    .innerJoin(organizations, eq(organizations.id, projects.organizationId))
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .where(eq(media.id, job.mediaId));
  if (!row || row.media.status !== "unavailable" || row.media.errorCode !== "caching") return;
  const now = ctx.now;
  try {
    const fetched = await fetchInboundMedia(row.media, row.channel, ctx.settings);
    const key = `${row.media.projectId}/${row.media.id}`;
    await ctx.ports.storage.put(key, fetched.bytes, { contentType: fetched.contentType });
    await settle(ctx, row.media.id, {
      status: "available",
      errorCode: null,
      storageKey: key,
      mimeType: fetched.contentType,
      fileSize: fetched.bytes.length,
      sha256: fetched.sha256,
      cachedAt: now,
      expiresAt: new Date(now.getTime() + row.retention * 1000),
      attempts: attempt.retryCount + 1,
    });
  } catch (error) {
    const retryable = !MediaFetchError.is(error) || error.retryable;
    if (retryable && attempt.retryCount < attempt.retryLimit) throw error;
    await settle(ctx, row.media.id, {
      status: "unavailable",
      errorCode: MediaFetchError.is(error) ? error.code : "provider_error",
      attempts: attempt.retryCount + 1,
    });
  }
  if (job.eventId && (await allSettled(ctx.db, row.media.messageId))) await releaseEvent({ ...ctx, now: ctx.ports.clock.now() }, job.eventId);
}

/**
 * Writes the outcome to the media row and the message's stored media, and patches its event payload.
 * At the clock's time after the download, not the job's start.
 */
async function settle(ctx: SystemCtx, mediaId: string, changes: Partial<typeof media.$inferInsert>) {
  const now = ctx.ports.clock.now();
  const message = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(media)
      .set({ ...changes, updatedAt: now })
      .where(eq(media.id, mediaId))
      .returning();
    return refreshMessageMedia({ ...ctx, db: tx, now }, updated!.messageId);
  });
  // The inbox shows the file (or that it is unavailable) once it is settled.
  if (message) publishInboxEvent(message.projectId, { type: "message.updated", conversation_id: message.conversationId, id: message.id });
}

/**
 * Recomputes a message's stored media (URLs signed at ctx.now) and its message.received payload from
 * its media rows. Returns the message's place (null: no message or no files), for the inbox's update.
 */
export async function refreshMessageMedia(
  ctx: Pick<SystemCtx, "db" | "settings" | "now">,
  messageId: string,
): Promise<{ id: string; projectId: string; conversationId: string } | null> {
  const { db: tx, now } = ctx;
  const files = await tx.select().from(media).where(eq(media.messageId, messageId)).orderBy(asc(media.id));
  const [message] = await tx.select().from(messages).where(eq(messages.id, messageId));
  if (!message || !files.length) return null;
  const place = { id: message.id, projectId: message.projectId, conversationId: message.conversationId };
  // The announcement's own flags per file, in order: the message body keeps every attachment.
  const body = message.body as { media?: Record<string, unknown> | null; attachments?: Record<string, unknown>[] };
  const announced = body.attachments ?? (body.media ? [body.media] : []);
  const wires = files.map((f, i) => mediaWire(f, now, ctx.settings.publicUrl, extrasOf(announced[i] ?? (i === 0 ? message.media : null))));
  await setMessageMedia(tx, messageId, wires[0] as unknown as Record<string, unknown>, now);
  // The message's own message.received, found by the dedupe key ingest gave it.
  const [event] = await tx
    .select()
    .from(events)
    .where(and(eq(events.projectId, message.projectId), eq(events.dedupeKey, `received:${message.channelId}:${message.platformMessageId}`)));
  if (!event) return place;
  const payload = event.payload as Record<string, unknown> & { messages?: { media?: unknown }[] };
  const items = (payload.messages ?? []).map((item, i) => (i === 0 ? { ...item, media: wires[0] } : item));
  await replaceEventPayload(tx, event.id, { ...payload, media: wires[0], assets: wires, messages: items });
  return place;
}

async function allSettled(db: Db, messageId: string): Promise<boolean> {
  const files = await db.select({ status: media.status, errorCode: media.errorCode }).from(media).where(eq(media.messageId, messageId));
  return files.every((f) => !(f.status === "unavailable" && f.errorCode === "caching"));
}

/**
 * Lets a held message.received go to the webhook: once its files are settled, or at the deadline,
 * whichever comes first. The event row is locked so the two never both schedule a delivery.
 */
export async function releaseEvent(ctx: SystemCtx, eventId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [event] = await tx.select().from(events).where(eq(events.id, eventId)).for("update");
    if (!event || !event.deliver) return;
    const [existing] = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.trigger, "event")));
    if (existing) return;
    await scheduleDelivery(tx, ctx.ports.queue, { id: event.id, projectId: event.projectId, type: event.type }, ctx.now);
  });
}

/** Retention: deletes the bytes of files past their deadline and marks them expired. Returns how many. */
export async function expireMedia(ctx: SystemCtx, limit = 500): Promise<number> {
  const now = ctx.now;
  const due = await ctx.db
    .select()
    .from(media)
    .where(and(eq(media.status, "available"), lte(media.expiresAt, now)))
    .orderBy(asc(media.expiresAt))
    .limit(limit);
  for (const file of due) {
    if (file.storageKey) await ctx.ports.storage.delete(file.storageKey);
    await ctx.db.transaction(async (tx) => {
      await tx.update(media).set({ status: "expired", errorCode: "expired", updatedAt: now }).where(eq(media.id, file.id));
      await refreshMessageMedia({ ...ctx, db: tx }, file.messageId);
    });
  }
  return due.length;
}
