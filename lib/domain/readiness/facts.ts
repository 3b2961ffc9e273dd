import { and, asc, count, desc, eq, gt } from "drizzle-orm";
import { channels, sandboxParticipants, webhookDeliveries } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import { linkedProjects, serializeChannels } from "@/lib/domain/channels";
import { getSandboxChannel, type ChannelRow } from "@/lib/domain/channels/sandbox";
import type { serializeChannel } from "@/lib/domain/channels/serialize";

export type ChannelWire = ReturnType<typeof serializeChannel>;

/** What readiness is computed from; loaded by loadReadinessFacts, judged by assessReadiness. */
export interface ReadinessFacts {
  project: ProjectRow;
  sandbox: { row: ChannelRow; wire: ChannelWire };
  /** projects.channel_id's channel (in the project's organization); null when unset or not found. */
  dedicated: { row: ChannelRow; wire: ChannelWire; linked: boolean } | null;
  /** The organization's other channels whose inbound this project receives (not its channel_id). */
  otherChannels: { row: ChannelRow; wire: ChannelWire }[];
  participantCount: number;
  participantCap: number;
  /** Deliveries waiting for a paused endpoint. */
  pausedDeliveries: number;
  /** The most recent delivery that was attempted and did not succeed, for the failure messages. */
  lastFailure: { statusCode: number | null; error: string | null } | null;
}

export async function loadReadinessFacts(ctx: Ctx, project: ProjectRow): Promise<ReadinessFacts> {
  const sandboxRow = await getSandboxChannel(ctx.db);
  const orgChannels = await ctx.db
    .select()
    .from(channels)
    .where(and(eq(channels.organizationId, project.organizationId), eq(channels.isSandbox, false)))
    .orderBy(asc(channels.id));
  // Where each channel's inbound goes, as the channels module (and ingest) decides it.
  const links = await linkedProjects(
    ctx.db,
    project,
    orgChannels.map((c) => c.id),
  );
  const isOurs = (c: ChannelRow) => links.get(c.id)?.id === project.id;
  const dedicatedRow = project.channelId ? orgChannels.find((c) => c.id === project.channelId) : undefined;
  // Other channels whose inbound this project receives; PLATFORM_B / C only while activated (as GET /channels lists them).
  const platformOn = (c: ChannelRow) =>
    c.platform === "PLATFORM_B" ? ctx.org.platformBEnabled : c.platform === "PLATFORM_C" ? ctx.org.platformCEnabled : true;
  const otherRows = orgChannels.filter((c) => c.id !== project.channelId && isOurs(c) && platformOn(c));
  // Serialized exactly as GET /channels/{id} serializes them, with this project as the viewer.
  const wires = await serializeChannels({ ...ctx, project }, [sandboxRow, ...(dedicatedRow ? [dedicatedRow] : []), ...otherRows]);
  const [sandboxWire, ...rest] = wires;
  const dedicatedWire = dedicatedRow ? rest.shift()! : null;
  const [participants] = await ctx.db.select({ n: count() }).from(sandboxParticipants).where(eq(sandboxParticipants.projectId, project.id));
  const webhook = await loadWebhookFacts(ctx, project);
  return {
    project,
    sandbox: { row: sandboxRow, wire: sandboxWire! },
    dedicated: dedicatedRow ? { row: dedicatedRow, wire: dedicatedWire!, linked: isOurs(dedicatedRow) } : null,
    otherChannels: otherRows.map((row, i) => ({ row, wire: rest[i]! })),
    participantCount: participants?.n ?? 0,
    participantCap: ctx.settings.sandboxParticipantCap,
    ...webhook,
  };
}

/** Paused deliveries and the last failure; only read while the endpoint is paused or failing. */
async function loadWebhookFacts(ctx: Ctx, project: ProjectRow): Promise<Pick<ReadinessFacts, "pausedDeliveries" | "lastFailure">> {
  if (!project.webhookPausedAt && !project.webhookFailingSince) return { pausedDeliveries: 0, lastFailure: null };
  const [paused] = await ctx.db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, project.id), eq(webhookDeliveries.status, "paused")));
  const [failed] = await ctx.db
    .select({ statusCode: webhookDeliveries.lastStatusCode, error: webhookDeliveries.lastError, status: webhookDeliveries.status })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.projectId, project.id), gt(webhookDeliveries.attemptCount, 0)))
    .orderBy(desc(webhookDeliveries.updatedAt), desc(webhookDeliveries.id))
    .limit(1);
  return {
    pausedDeliveries: paused?.n ?? 0,
    lastFailure: failed && failed.status !== "succeeded" ? { statusCode: failed.statusCode, error: failed.error } : null,
  };
}
