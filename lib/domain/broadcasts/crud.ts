/**
 * Broadcasts: create, read and list (docs/spec/decisions.md "Broadcasts"). A broadcast is made for one
 * of the project's own PLATFORM_A channels and one of that channel's templates; the template need not
 * be approved yet (send checks that), and recipients given at creation are all-or-nothing.
 */
import { and, eq, type SQL } from "drizzle-orm";
import { broadcastRecipients, broadcasts } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { SvcError, invalidRequest, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { channelTemplateOf } from "@/lib/domain/templates/send-check";
import { insertRecipients, judgeRecipients, type RecipientInput } from "./recipients";
import { serializeBroadcast, serializeRecipient, type BroadcastRecipientRow, type BroadcastRow, type BroadcastStatus } from "./serialize";
import { statsOf } from "./stats";

export interface BroadcastCreateInput {
  name: string;
  channel_id: string;
  template: { id: string } | { name: string; language: string };
  send_at?: string | undefined;
  recipients?: RecipientInput[] | undefined;
}

const MAX_SCHEDULE_AHEAD_MS = 90 * 24 * 3600_000;

export async function createBroadcast(ctx: Ctx, input: BroadcastCreateInput) {
  const channel = await broadcastChannel(ctx, input.channel_id);
  const template = await channelTemplateOf(ctx, channel, input.template);
  const sendAt = input.send_at === undefined ? null : scheduleTime(ctx, input.send_at);
  const id = newId("broadcast", ctx.now.getTime());
  const judged = await judgeRecipients(ctx, template, input.recipients ?? []);
  if (judged.errors.length > 0) {
    const issues = Object.fromEntries(judged.errors.map((e) => [`recipients.${e.index}`, [e.message]]));
    throw invalidRequest(
      "Some recipients are not valid, so nothing was created: see issues (or add them later with POST /broadcasts/{id}/recipients).",
      issues,
    );
  }
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(broadcasts)
      .values({
        id,
        projectId: ctx.project.id,
        channelId: channel.id,
        name: input.name,
        templateId: template.id,
        templateName: template.name,
        templateLanguage: template.language,
        status: "DRAFT",
        sendAt,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning();
    await insertRecipients({ ...ctx, db: tx }, id, judged.rows);
    return created!;
  });
  return serialize(ctx, row);
}

export async function getBroadcastRow(ctx: Ctx, id: string): Promise<BroadcastRow> {
  const [row] = await ctx.db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.projectId, ctx.project.id), eq(broadcasts.id, id)));
  if (!row) throw notFound("broadcast", id);
  return row;
}

export async function getBroadcast(ctx: Ctx, id: string) {
  return serialize(ctx, await getBroadcastRow(ctx, id));
}

export async function serialize(ctx: Pick<Ctx, "db">, row: BroadcastRow) {
  const stats = await statsOf(ctx.db, [row.id]);
  return serializeBroadcast(row, stats.get(row.id)!);
}

export async function listBroadcasts(ctx: Ctx, params: PageParams & { status?: BroadcastStatus | undefined; channel_id?: string | undefined }) {
  const filters: SQL[] = [];
  if (params.status) filters.push(eq(broadcasts.status, params.status));
  if (params.channel_id) filters.push(eq(broadcasts.channelId, params.channel_id));
  const page = await paginate(ctx.db, broadcasts, eq(broadcasts.projectId, ctx.project.id), params, filters.length ? and(...filters) : undefined);
  const stats = await statsOf(
    ctx.db,
    page.data.map((row) => row.id),
  );
  return { object: "list" as const, data: page.data.map((row) => serializeBroadcast(row, stats.get(row.id)!)), has_more: page.has_more };
}

export async function listRecipients(ctx: Ctx, id: string, params: PageParams & { status?: BroadcastRecipientRow["status"] | undefined }) {
  const broadcast = await getBroadcastRow(ctx, id);
  const filter = params.status ? eq(broadcastRecipients.status, params.status) : undefined;
  const page = await paginate(ctx.db, broadcastRecipients, eq(broadcastRecipients.broadcastId, broadcast.id), params, filter);
  return { object: "list" as const, data: page.data.map(serializeRecipient), has_more: page.has_more };
}

/** Broadcasts send templates, so only a dedicated PLATFORM_A channel of the project can carry one. */
async function broadcastChannel(ctx: Ctx, channelId: string): Promise<ChannelRow> {
  const channel = await getChannelRowOrThrow(ctx, channelId);
  if (channel.isSandbox) {
    throw new SvcError(
      "channel_not_ready",
      "The shared sandbox cannot send templates, so it cannot carry a broadcast. Connect a dedicated PLATFORM_A channel (POST /channels).",
      { channel_id: channel.id, blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"] },
    );
  }
  if (channel.platform !== "PLATFORM_A" || channel.projectId !== ctx.project.id) {
    throw new SvcError("feature_unsupported_on_channel", "Broadcasts go out through the project's own PLATFORM_A channel (templates exist only there).", {
      channel_id: channel.id,
      platform: channel.platform,
    });
  }
  return channel;
}

function scheduleTime(ctx: Ctx, value: string): Date {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw invalidRequest("send_at must be an ISO 8601 date-time.", { send_at: ["Not a date-time."] });
  if (at.getTime() <= ctx.now.getTime()) throw invalidRequest("send_at must be in the future.", { send_at: ["In the past: leave it out to send now."] });
  if (at.getTime() - ctx.now.getTime() > MAX_SCHEDULE_AHEAD_MS) throw invalidRequest("send_at can be at most 90 days ahead.", { send_at: ["Too far ahead."] });
  return at;
}
