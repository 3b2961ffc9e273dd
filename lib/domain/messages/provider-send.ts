import { eq, sql } from "drizzle-orm";
import { channels, messages } from "@/lib/db/schema";
import { builtOnce, preparedPerDb } from "@/lib/ports/db/prepared";
import { ProviderError, type MessageFailure, type ProviderChannel, type ProviderPlatform } from "@/lib/ports/provider/types";
import { unseal } from "@/lib/crypto/secrets";
import type { Settings, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { OutboundContent } from "@/lib/ports/provider/outbound";
import { applyStatus } from "./status";
import type { MessageRow } from "./serialize";

export const PROVIDER_SEND_JOB = "provider.send";

/** `paced`: an internal send that takes its pair slot when the job runs (see internal-pacing.ts). */
export interface ProviderSendJob {
  messageId: string;
  paced?: boolean;
}

/** The channel as the provider port addresses it; the shared sandbox uses the configured sandbox token. */
export function providerChannelOf(channel: ChannelRow, settings: Pick<Settings, "sandboxAccessToken">): ProviderChannel {
  const credentials = channel.credentialsSealed ? (JSON.parse(unseal(channel.credentialsSealed)) as Record<string, string>) : {};
  return {
    platform: channel.platform as ProviderPlatform,
    senderId: channel.providerSenderId!,
    accessToken: channel.isSandbox ? settings.sandboxAccessToken : (credentials.access_token ?? ""),
  };
}

/** A provider.send job's message with its channel: read once per run of the job, by the pacing check and the send. */
export interface SendTarget {
  message: MessageRow;
  channel: ChannelRow;
}

export async function loadSendTarget(ctx: Pick<SystemCtx, "db">, messageId: string): Promise<SendTarget | null> {
  const [row] = await sendTarget(ctx.db).execute({ id: messageId });
  return row ?? null;
}

const sendTarget = preparedPerDb((db) =>
  db
    .select({ message: messages, channel: channels })
    .from(messages)
    .innerJoin(channels, eq(channels.id, messages.channelId))
    .where(eq(messages.id, sql.placeholder("id")))
    .prepare("provider_send_target"),
);

/** The provider's id of an accepted message, built once (every send runs it). */
const storeProviderId = builtOnce<{ id: string }>("message_store_provider_id", (db) =>
  db
    .update(messages)
    .set({ platformMessageId: sql`${sql.placeholder("providerId")}::text`, updatedAt: sql`${sql.placeholder("at")}::text::timestamptz` })
    .where(eq(messages.id, sql.placeholder("id")))
    .returning({ id: messages.id }),
);

/**
 * The provider.send job: hands a queued message to the provider. Success stores the provider id
 * (PLATFORM_A reports "sent" by callback; B and C have no sent callback, so acceptance is "sent").
 * A final refusal marks the message failed with the provider's failure; a retryable one throws so
 * the queue retries with backoff, and the last attempt fails the message.
 *
 * Times are read from the clock at each write, not ctx.now: the provider call between them can take
 * seconds.
 */
export async function deliverToProvider(ctx: SystemCtx, target: SendTarget | null, attempt: { retryCount: number; retryLimit: number }): Promise<void> {
  const { clock, provider } = ctx.ports;
  if (!target) return;
  const { message, channel } = target;
  if (message.status !== "queued" || message.platformMessageId) return;
  // Disconnected after the message was queued (DELETE /channels/{id}): its credentials are gone.
  if (channel.status === "disconnected") {
    await applyStatus(ctx, message, { status: "failed", at: clock.now(), failure: channelDisconnected(clock.now()), recipientId: message.recipient });
    return;
  }
  const outbound = { content: message.body as unknown as OutboundContent, ...(message.replyTo ? { replyTo: message.replyTo } : {}) };
  try {
    const { platformMessageId } = await provider.send(providerChannelOf(channel, ctx.settings), message.recipient!, outbound);
    const now = clock.now();
    await storeProviderId(ctx.db, { id: message.id, providerId: platformMessageId, at: now.toISOString() });
    if (channel.platform !== "PLATFORM_A")
      await applyStatus(ctx, { ...message, platformMessageId }, { status: "sent", at: now, recipientUserId: message.recipient });
  } catch (error) {
    if (!ProviderError.is(error)) throw error;
    if (error.retryable && attempt.retryCount < attempt.retryLimit) throw error;
    await applyStatus(ctx, message, { status: "failed", at: clock.now(), failure: error.failure, recipientId: message.recipient });
  }
}

function channelDisconnected(at: Date): MessageFailure {
  const message = "The channel was disconnected before this message was sent. Connect the number again (POST /channels) and send it again.";
  return {
    provider: "service",
    summary: "Channel disconnected",
    code: "channel_disconnected",
    subcode: null,
    type: null,
    title: "Channel disconnected",
    message,
    fbtrace_id: null,
    http_status: null,
    occurred_at: at.toISOString(),
  };
}
