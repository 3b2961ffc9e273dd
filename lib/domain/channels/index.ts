import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { channels, projects } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { newId } from "@/lib/ids";
import { SvcError, notFound } from "@/lib/errors";
import { seal } from "@/lib/crypto/secrets";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { SANDBOX_CHANNEL_ID, type ChannelRow } from "./sandbox";
import { serializeChannel } from "./serialize";
import { loadAnsweringFacts } from "./routing-warning";
import { channelConnected } from "./connected";
import type { ProviderAccount } from "@/lib/ports/provider/types";
import { readProviderStatuses } from "./provider-statuses";
import { setProjectNumber } from "@/lib/domain/projects/own-number";
import { recordAudit } from "@/lib/domain/audit/record";

export type ChannelRoutingMode = ChannelRow["routingMode"];

/** Channels a project can see: the shared sandbox plus its organization's, B and C only when activated. */
function visibleChannels(ctx: Ctx): SQL {
  return visibleTo(ctx.org.id, ctx.org.platformBEnabled, ctx.org.platformCEnabled);
}

/** The rule, with the organization's id and activations as values or as placeholders of a prepared query. */
export function visibleTo(org: unknown, platformB: unknown, platformC: unknown): SQL {
  return or(
    eq(channels.id, SANDBOX_CHANNEL_ID),
    and(
      eq(channels.organizationId, sql`${org}`),
      or(
        eq(channels.platform, "PLATFORM_A"),
        and(eq(channels.platform, "PLATFORM_B"), sql`${platformB}::boolean`),
        and(eq(channels.platform, "PLATFORM_C"), sql`${platformC}::boolean`),
      ),
    ),
  )!;
}

export async function getChannelRowOrThrow(ctx: Ctx, id: string): Promise<ChannelRow> {
  const [row] = await visibleChannelById(ctx.db).execute({ id, org: ctx.org.id, b: ctx.org.platformBEnabled, c: ctx.org.platformCEnabled });
  if (!row) throw notFound("channel", id);
  return row;
}

/**
 * A channel this caller may change (routing, disconnect): a dedicated channel linked to another
 * project of the organization is a 404 to a project key, like any other project's id; the
 * organization's owners and admins manage every channel of the organization from the dashboard.
 * Reads stay organization-wide (getChannelRowOrThrow).
 */
export async function getWritableChannelRowOrThrow(ctx: Ctx, id: string): Promise<ChannelRow> {
  const row = await getChannelRowOrThrow(ctx, id);
  if (row.isSandbox || managesOrganization(ctx)) return row;
  const linked = (await linkedProjects(ctx.db, ctx.project, [row.id])).get(row.id);
  if (linked && linked.id !== ctx.project.id) throw notFound("channel", id);
  return row;
}

function managesOrganization(ctx: Ctx): boolean {
  return ctx.actor.type === "user" && (ctx.actor.role === "owner" || ctx.actor.role === "admin");
}

/** visibleChannels with the organization as parameters: every send starts with it. */
const visibleChannelById = preparedPerDb((db) =>
  db
    .select()
    .from(channels)
    .where(and(eq(channels.id, sql.placeholder("id")), visibleTo(sql.placeholder("org"), sql.placeholder("b"), sql.placeholder("c"))))
    .prepare("visible_channel_by_id"),
);

/**
 * The project each dedicated channel routes inbound to: the one whose channel_id it is (ingest looks
 * channels up the same way). The key's own project wins when several claim the same channel.
 */
export async function linkedProjects(db: Db, viewer: ProjectRow, channelIds: string[]): Promise<Map<string, ProjectRow>> {
  const ids = [...new Set(channelIds)];
  const out = new Map<string, ProjectRow>();
  if (!ids.length) return out;
  // A channel's own project link wins; channels connected before that link existed fall back to the
  // project whose channel_id points at them.
  const owners = await db.select({ id: channels.id, projectId: channels.projectId }).from(channels).where(inArray(channels.id, ids));
  const ownerIds = owners.map((o) => o.projectId).filter((id): id is string => Boolean(id));
  const rows = await db
    .select()
    .from(projects)
    .where(or(inArray(projects.channelId, ids), ownerIds.length ? inArray(projects.id, ownerIds) : undefined));
  for (const row of rows) {
    if (!row.channelId || (out.has(row.channelId) && row.id !== viewer.id)) continue;
    out.set(row.channelId, row);
  }
  for (const owner of owners) {
    const project = rows.find((r) => r.id === owner.projectId);
    if (project) out.set(owner.id, project);
  }
  return out;
}

/** Channel wire objects, each with its routing warning evaluated against the project it routes to. */
export async function serializeChannels(ctx: Ctx, rows: ChannelRow[]) {
  const linked = await linkedProjects(
    ctx.db,
    ctx.project,
    rows.filter((c) => !c.isSandbox).map((c) => c.id),
  );
  const routedTo = (c: ChannelRow) => (c.isSandbox ? ctx.project : (linked.get(c.id) ?? null));
  const facts = await loadAnsweringFacts(
    ctx.db,
    rows.map((channel) => ({ channel, project: routedTo(channel) })),
  );
  return rows.map((c) => serializeChannel(c, ctx.project, routedTo(c), facts));
}

export async function getChannel(ctx: Ctx, id: string) {
  const [channel] = await serializeChannels(ctx, [await getChannelRowOrThrow(ctx, id)]);
  return channel!;
}

export async function listChannels(ctx: Ctx, page: PageParams) {
  // The sandbox's fixed id sorts after every ulid, so "newest first" lists it first: where a new
  // developer looks for it.
  const result = await paginate(ctx.db, channels, visibleChannels(ctx), page);
  return { data: await serializeChannels(ctx, result.data), has_more: result.has_more };
}

export interface ChannelCreateInput {
  platform: "PLATFORM_A" | "PLATFORM_B" | "PLATFORM_C";
  display_name?: string | null;
  phone_number?: string | null;
  routing_mode?: ChannelRoutingMode;
  credentials: Record<string, string>;
}

const SENDER_FIELD = { PLATFORM_A: "phone_number_id", PLATFORM_B: "account_id", PLATFORM_C: "page_id" } as const;

/**
 * Connects a dedicated channel to the key's project. Credentials are sealed at rest and never
 * returned; inbound payloads are routed to the channel by its provider sender id.
 */
export async function createChannel(ctx: Ctx, input: ChannelCreateInput) {
  if (input.platform === "PLATFORM_B" && !ctx.org.platformBEnabled) throw platformOff("PLATFORM_B");
  if (input.platform === "PLATFORM_C" && !ctx.org.platformCEnabled) throw platformOff("PLATFORM_C");
  const senderId = input.credentials[SENDER_FIELD[input.platform]]!;
  const [taken] = await ctx.db
    .select({ id: channels.id, status: channels.status })
    .from(channels)
    .where(and(eq(channels.platform, input.platform), eq(channels.providerSenderId, senderId)));
  if (taken && taken.status !== "disconnected") throw senderTaken(input.platform);
  // Before the insert, so the connect answers with the number's publish readiness as the provider reports it.
  const statuses = input.platform === "PLATFORM_A" ? await readProviderStatuses(ctx, accountOf(input.credentials, senderId)) : {};
  const id = newId("channel", ctx.now.getTime());
  let channel: ChannelRow;
  try {
    channel = await ctx.db.transaction(async (tx) => {
      // A disconnected channel kept the sender id only to recognise (and refuse) late inbound
      // (channels/disconnect.ts): connecting the number again takes it over; the old row keeps its history.
      if (taken) {
        await tx
          .update(channels)
          .set({ providerSenderId: null, updatedAt: ctx.now })
          .where(and(eq(channels.id, taken.id), eq(channels.status, "disconnected")));
      }
      const [row] = await tx
        .insert(channels)
        .values({
          id,
          organizationId: ctx.org.id,
          platform: input.platform,
          status: "connected",
          displayName: input.display_name ?? null,
          phoneNumber: input.phone_number ?? null,
          routingMode: input.routing_mode !== undefined ? input.routing_mode : inheritedRouting(ctx.project),
          numberMode: "dedicated",
          projectId: ctx.project.id,
          isSandbox: false,
          providerSenderId: senderId,
          businessAccountId: input.platform === "PLATFORM_A" ? (input.credentials.business_account_id ?? null) : null,
          credentialsSealed: seal(JSON.stringify(input.credentials)),
          ...statuses,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      // The first dedicated channel becomes the project's own number; so does one connected after
      // the project's number was disconnected (DELETE /channels/{id}).
      const current = ctx.project.channelId
        ? (await tx.select({ status: channels.status }).from(channels).where(eq(channels.id, ctx.project.channelId)))[0]
        : undefined;
      if (!ctx.project.channelId || current?.status === "disconnected") {
        await setProjectNumber(tx, ctx.project, id, ctx.now);
      }
      // Never the credentials: which number, on which platform, routed how.
      await recordAudit(
        { ...ctx, db: tx },
        {
          action: "channel.connected",
          target: { type: "channel", id },
          details: { platform: row!.platform, display_name: row!.displayName, phone_number: row!.phoneNumber, routing_mode: row!.routingMode },
        },
      );
      await channelConnected.run({ ...ctx, db: tx }, { channel: row! });
      return row!;
    });
  } catch (error) {
    // Two concurrent connects of the same sender: the unique index decides, the loser gets the same 409.
    if (isUniqueViolation(error, "channels_platform_sender")) throw senderTaken(input.platform);
    throw error;
  }
  const [project] = await ctx.db.select().from(projects).where(eq(projects.id, ctx.project.id));
  return (await serializeChannels({ ...ctx, project: project ?? ctx.project }, [channel]))[0]!;
}

/**
 * Newly linked channels inherit the project routing mode at connect time (the spec): a copy of
 * EXTERNAL or FLOWS; AGENT is the project's alone, so under it the channel follows the project (null).
 */
function inheritedRouting(project: ProjectRow): ChannelRoutingMode {
  return project.routingMode === "AGENT" ? null : project.routingMode;
}

function accountOf(credentials: Record<string, string>, phoneNumberId: string): ProviderAccount {
  return { businessAccountId: credentials.business_account_id ?? "", phoneNumberId, accessToken: credentials.access_token ?? "" };
}

function senderTaken(platform: ChannelCreateInput["platform"]) {
  return new SvcError("conflict", `This ${SENDER_FIELD[platform]} is already connected as a channel.`, {
    issues: { [`credentials.${SENDER_FIELD[platform]}`]: ["Already connected."] },
  });
}

export async function updateChannel(ctx: Ctx, id: string, input: { routing_mode: ChannelRoutingMode }) {
  const channel = await getWritableChannelRowOrThrow(ctx, id);
  if (channel.isSandbox) {
    throw new SvcError(
      "unprocessable",
      "The shared sandbox routes each tester by the project they joined; its routing_mode cannot be set. Change the project's routing_mode instead (PATCH /projects/{id}).",
      {
        issues: { routing_mode: ["Not settable on the shared sandbox channel."] },
      },
    );
  }
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(channels).set({ routingMode: input.routing_mode, updatedAt: ctx.now }).where(eq(channels.id, channel.id)).returning();
    if (channel.routingMode !== input.routing_mode) {
      await recordAudit(
        { ...ctx, db: tx },
        {
          action: "channel.routing_changed",
          target: { type: "channel", id: channel.id },
          details: { display_name: channel.displayName, from: channel.routingMode, to: input.routing_mode },
        },
      );
    }
    return updated!;
  });
  return (await serializeChannels(ctx, [row]))[0]!;
}

function platformOff(platform: string) {
  return new SvcError(
    "feature_unsupported_on_channel",
    `${platform} is not activated for this organization. An operator can turn it on in the dashboard or with: npm run svc -- orgs enable-platform --org <id> --platform ${platform}`,
    { platform },
  );
}
