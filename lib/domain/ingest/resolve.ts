import { and, asc, desc, eq, sql } from "drizzle-orm";
import { channels, messages, projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { aliasIdentity } from "@/lib/domain/contacts/identity";
import { upsertContactAndConversation } from "./contact-conversation";
import type { InboundEvent, InboundParty } from "./types";
import { participantProject } from "./sandbox-join";

/** One kind of normalised provider item. */
export type InboundOf<K extends InboundEvent["kind"]> = Extract<InboundEvent, { kind: K }>;

/** The hottest lookups of ingest, built once per database (every provider item asks them). */
export const channelBySender = preparedPerDb((db) =>
  db
    .select()
    .from(channels)
    .where(and(eq(channels.platform, sql.placeholder("platform")), eq(channels.providerSenderId, sql.placeholder("sender"))))
    .prepare("ingest_channel_by_sender"),
);
/**
 * The channel with whether a customer message is stored on it already (the dedupe check applyMessage
 * makes first) and the project the sender writes to as it stands before the message (a sandbox
 * tester's joined project, else the channel's own): one round trip for all three, on the path every
 * inbound message takes. A message that joins or claims changes the project; projectFor reads it then.
 */
export const channelBySenderSeeing = preparedPerDb((db) =>
  db
    .select({
      channel: channels,
      // Qualified by hand: drizzle writes a one-table select's columns bare, and a bare "id" in the
      // subquery would be the message's.
      seen: sql<boolean>`exists (select 1 from "messages" as "seen" where "seen"."channel_id" = "channels"."id" and "seen"."platform_message_id" = ${sql.placeholder("providerId")})`,
      project: projects,
    })
    .from(channels)
    .leftJoin(
      projects,
      sql`${projects.id} = case when ${channels.isSandbox} then (select "p"."project_id" from "sandbox_participants" as "p" where "p"."channel_id" = ${channels.id} and "p"."address" = ${sql.placeholder("address")}) else ${channels.projectId} end`,
    )
    .where(and(eq(channels.platform, sql.placeholder("platform")), eq(channels.providerSenderId, sql.placeholder("sender"))))
    .prepare("ingest_channel_by_sender_seeing"),
);
/** The channel with the stored message a status callback names (null when it is not stored yet): one read for both. */
export const channelBySenderWithMessage = preparedPerDb((db) =>
  db
    .select({ channel: channels, message: messages })
    .from(channels)
    .leftJoin(messages, and(eq(messages.channelId, channels.id), eq(messages.platformMessageId, sql.placeholder("providerId"))))
    .where(and(eq(channels.platform, sql.placeholder("platform")), eq(channels.providerSenderId, sql.placeholder("sender"))))
    .prepare("ingest_channel_by_sender_with_message"),
);
const projectById = preparedPerDb((db) =>
  db
    .select()
    .from(projects)
    .where(eq(projects.id, sql.placeholder("id")))
    .prepare("ingest_project_by_id"),
);
/** A stored message by its provider id on a channel: only whether it exists (dedupe), or the whole row. */
const byProviderId = and(eq(messages.channelId, sql.placeholder("channel")), eq(messages.platformMessageId, sql.placeholder("providerId")));
export const messageIdByProviderId = preparedPerDb((db) =>
  db.select({ id: messages.id }).from(messages).where(byProviderId).prepare("ingest_message_id_by_provider_id"),
);
export const messageByProviderId = preparedPerDb((db) => db.select().from(messages).where(byProviderId).prepare("ingest_message_by_provider_id"));

export function addressOf(party: InboundParty): string | null {
  return party.address ?? party.user_id;
}

/**
 * The project an inbound item belongs to: the sandbox tester's joined project, else the project whose
 * own channel it is. A channel connected after the project's first one is linked to no project row
 * (projects.channel_id holds one channel): it then belongs to its organization's only project, or to
 * the project already messaging on it; with neither, there is no project to store it in.
 */
export async function projectFor(db: Db, channel: ChannelRow, party: InboundParty): Promise<ProjectRow | null> {
  if (channel.isSandbox) {
    const address = addressOf(party);
    return address ? participantProject(db, channel, address) : null;
  }
  if (channel.projectId) {
    const [owner] = await projectById(db).execute({ id: channel.projectId });
    if (owner) return owner;
  }
  // Channels connected before channels carried their project: the project pointing at the channel.
  const [project] = await db.select().from(projects).where(eq(projects.channelId, channel.id)).orderBy(asc(projects.id)).limit(1);
  if (project) return project;
  if (!channel.organizationId) return null;
  const candidates = await db.select().from(projects).where(eq(projects.organizationId, channel.organizationId));
  if (candidates.length === 1) return candidates[0]!;
  const [recent] = await db
    .select({ projectId: messages.projectId })
    .from(messages)
    .where(eq(messages.channelId, channel.id))
    .orderBy(desc(messages.id))
    .limit(1);
  return candidates.find((p) => p.id === recent?.projectId) ?? null;
}

/**
 * The party's contact in the project (created or updated) and their conversation, at ctx.now; with
 * `touchAt`, the conversation's last message is at least then (a message the caller stores with them).
 */
export async function contactAndConversation(ctx: SystemCtx, project: ProjectRow, channel: ChannelRow, party: InboundParty, touchAt: Date | null = null) {
  const { db, now } = ctx;
  const found = await upsertContactAndConversation(
    db,
    {
      projectId: project.id,
      organizationId: project.organizationId,
      channelId: channel.id,
      platform: channel.platform,
      phone: party.address,
      userId: party.user_id,
      parentUserId: party.parent_user_id,
      username: party.username,
      name: party.name,
      now,
    },
    touchAt,
  );
  // A sender known by number AND user id: the user id alone (a username-only message later, or a
  // status naming only recipient_user_id) must resolve to the same contact.
  if (party.address && party.user_id) {
    await aliasIdentity(db, project.organizationId, { platform: channel.platform, userId: party.user_id }, found.contact.id);
  }
  return found;
}
