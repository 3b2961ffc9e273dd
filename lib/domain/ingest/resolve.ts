import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { channels, messages, projects, sandboxParticipants } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { tickBatch } from "@/lib/ports/db/tick-batch";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { aliasIdentity, contactIdFor, upsertContactAs } from "@/lib/domain/contacts/identity";
import { PgTransaction } from "drizzle-orm/pg-core";
import { ensureConversation } from "@/lib/domain/conversations";
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

/**
 * A batch's values of one column as one JSON parameter, matched with `= any(array(…))`: an index scan
 * whatever the planner guesses of the table (a generic plan read `in (select …)` as a hundred keys and
 * chose a sequential scan). A two-column key matches each column's values; the rows of pairs nobody
 * asked for are dropped by the batch (tickBatch hands each caller only its key's rows).
 */
const anyOf = (column: SQL, name: string) => sql`${column} = any(array(select jsonb_array_elements_text(${sql.placeholder(name)}::text::jsonb)))`;
const values = (list: string[]) => JSON.stringify([...new Set(list)]);

const channelsBySenders = preparedPerDb((db) =>
  db
    .select()
    .from(channels)
    .where(and(anyOf(sql`${channels.platform}`, "platforms"), anyOf(sql`${channels.providerSenderId}`, "senders")))
    .prepare("ingest_channels_by_senders"),
);
/**
 * channelBySender for the ingest jobs a fetch started together: one statement for all of them
 * (lib/ports/db/tick-batch.ts). An item's channel is read as it always was, only beside the others'.
 */
export const channelOfSender = tickBatch<{ platform: string; sender: string }, typeof channels.$inferSelect>({
  keyOf: (key) => `${key.platform}\u0000${key.sender}`,
  rowKey: (row) => `${row.platform}\u0000${row.providerSenderId}`,
  load: (db, keys) => channelsBySenders(db).execute({ platforms: values(keys.map((key) => key.platform)), senders: values(keys.map((key) => key.sender)) }),
});

const messageIdsByProviderIds = preparedPerDb((db) =>
  db
    .select({ id: messages.id, channelId: messages.channelId, providerId: messages.platformMessageId })
    .from(messages)
    .where(and(anyOf(sql`${messages.channelId}`, "channels"), anyOf(sql`${messages.platformMessageId}`, "providerIds")))
    .prepare("ingest_message_ids_by_provider_ids"),
);
/** messageIdByProviderId (the dedupe check before a customer's message is stored), batched like channelOfSender. */
export const seenMessageId = tickBatch<{ channel: string; providerId: string }, { id: string; channelId: string; providerId: string | null }>({
  keyOf: (key) => `${key.channel}\u0000${key.providerId}`,
  rowKey: (row) => `${row.channelId}\u0000${row.providerId}`,
  load: (db, keys) => messageIdsByProviderIds(db).execute({ channels: values(keys.map((key) => key.channel)), providerIds: values(keys.map((key) => key.providerId)) }),
});

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

const participantsProjects = preparedPerDb((db) =>
  db
    .select({ channelId: sandboxParticipants.channelId, address: sandboxParticipants.address, project: projects })
    .from(sandboxParticipants)
    .innerJoin(projects, eq(projects.id, sandboxParticipants.projectId))
    .where(and(anyOf(sql`${sandboxParticipants.channelId}`, "channels"), anyOf(sql`${sandboxParticipants.address}`, "addresses")))
    .prepare("ingest_participants_projects"),
);
const participantProjectOf = tickBatch<{ channel: string; address: string }, { channelId: string; address: string; project: ProjectRow }>({
  keyOf: (key) => `${key.channel}\u0000${key.address}`,
  rowKey: (row) => `${row.channelId}\u0000${row.address}`,
  load: (db, keys) => participantsProjects(db).execute({ channels: values(keys.map((key) => key.channel)), addresses: values(keys.map((key) => key.address)) }),
});
const projectsByIds = preparedPerDb((db) =>
  db
    .select()
    .from(projects)
    .where(anyOf(sql`${projects.id}`, "ids"))
    .prepare("ingest_projects_by_ids"),
);
const projectOfId = tickBatch<string, ProjectRow>({
  keyOf: (id) => id,
  rowKey: (row) => row.id,
  load: (db, ids) => projectsByIds(db).execute({ ids: values(ids) }),
});

/**
 * projectFor before the item's transaction, for the ingest jobs a fetch started together: the sandbox
 * tester's project and a channel's own project are read in one statement for all of them
 * (lib/ports/db/tick-batch.ts); any other case asks projectFor itself.
 */
export async function projectForBatched(db: Db, channel: ChannelRow, party: InboundParty): Promise<ProjectRow | null> {
  if (channel.isSandbox) {
    const address = addressOf(party);
    if (!address) return null;
    const [row] = await participantProjectOf(db, { channel: channel.id, address });
    return row?.project ?? null;
  }
  if (channel.projectId) {
    const [owner] = await projectOfId(db, channel.projectId);
    if (owner) return owner;
  }
  return projectFor(db, channel, party);
}

/** The party's contact in the project (created or updated) and their conversation, at ctx.now. */
export async function contactAndConversation(ctx: SystemCtx, project: ProjectRow, channel: ChannelRow, party: InboundParty) {
  const { db, now } = ctx;
  const input = {
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
  };
  const contactId = await contactIdFor(db, input);
  // A sender known by number AND user id: the user id alone (a username-only message later, or a
  // status naming only recipient_user_id) must resolve to the same contact.
  const alias = party.address && party.user_id ? { platform: channel.platform, userId: party.user_id } : null;
  if (!alias && (db as unknown) instanceof PgTransaction) {
    // On a transaction (one connection) the two upserts are pipelined: sent together, run in this
    // order by Postgres (the conversation's contact exists when it runs), one round trip instead of two.
    const [contact, conversation] = await Promise.all([upsertContactAs(db, contactId, input), ensureConversation(db, project.id, contactId, channel.id, now)]);
    return { contact, conversation };
  }
  const contact = await upsertContactAs(db, contactId, input);
  if (alias) await aliasIdentity(db, project.organizationId, alias, contact.id);
  const conversation = await ensureConversation(db, project.id, contact.id, channel.id, now);
  return { contact, conversation };
}
