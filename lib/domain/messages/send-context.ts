/**
 * What a send reads before it writes, in ONE query (README "Performance", issue 35): the message an
 * Idempotency-Key already created, the channel as the project sees it, and for a reply the target
 * conversation with its contact, the customer's last message on the channel (the 24 h window) and,
 * on the sandbox, whether the contact joined; and on POST /messages with a key, the key's claim
 * (FoldedClaim). These were four round trips per POST /messages; the checks on them still run in the
 * same order (send.ts), so the answers are the same.
 */
import { and, eq, sql, type Placeholder, type SQL } from "drizzle-orm";
import { channels, contacts, conversations, messages, projects, sandboxParticipants } from "@/lib/db/schema";
import type { Ctx, FoldedClaim } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { visibleTo } from "@/lib/domain/channels";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { lastCustomerMessageAtSql, type ConversationRow } from "@/lib/domain/conversations";
import type { ContactRow } from "@/lib/domain/contacts/identity";

/** The message an Idempotency-Key created in the last 24 h (a retry after the API's own record was lost). */
interface EarlierSend {
  id: string;
  conversationId: string;
  contactId: string;
  body: Record<string, unknown>;
}

export interface SendContext {
  /** null: no channel of that id is visible to the project (the earlier message, if any, still answers first). */
  channel: ChannelRow | null;
  earlier: EarlierSend | null;
  /** The reply's conversation and contact (null: no such conversation in the project, or a `to` send). */
  conversation: ConversationRow | null;
  contact: ContactRow | null;
  lastCustomerMessageAt: Date | null;
  /** Whether the contact joined the project on the channel: always true off the sandbox. */
  joined: boolean;
  /** With a FoldedClaim: whether this read took the request's Idempotency-Key. */
  claimed: boolean;
}

const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/**
 * Read from the project's own row, so the key's earlier message comes back even when the channel is
 * not visible. `idempotencyKey` null: no earlier message is looked for; `conversationId` null: no
 * conversation is read (a `to` send). `claim`: the request's Idempotency-Key is claimed by the same
 * statement (FoldedClaim), whose answer is `claimed`.
 */
export async function readSendContext(
  ctx: Ctx,
  channelId: string,
  idempotencyKey: string | null,
  conversationId: string | null,
  claim: FoldedClaim | null = null,
): Promise<SendContext> {
  const query = claim ? claimingQueryOf(claim)(ctx.db) : sendContextQuery(ctx.db);
  const [row] = await query.execute({
    ...claim?.values,
    project: ctx.project.id,
    channel: channelId,
    org: ctx.org.id,
    b: ctx.org.platformBEnabled,
    c: ctx.org.platformCEnabled,
    key: idempotencyKey,
    since: new Date(ctx.now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString(),
    conversation: conversationId,
  });
  if (!row) throw new Error(`send context: project ${ctx.project.id} has no row`);
  const earlier = row.earlier
    ? { id: row.earlier[0]!, conversationId: row.earlier[1]!, contactId: row.earlier[2]!, body: JSON.parse(row.earlier[3]!) as Record<string, unknown> }
    : null;
  return {
    channel: row.channel,
    earlier,
    conversation: row.conversation,
    contact: row.contact,
    lastCustomerMessageAt: row.lastCustomerMessageAt,
    joined: row.joined,
    claimed: "claimed" in row && row.claimed !== null,
  };
}

/** Built once per database: every POST /messages starts with it. */
const sendContextQuery = preparedPerDb((db: Db) => selectSendContext(db).prepare("send_context"));

let claimingQuery: ((db: Db) => ReturnType<typeof claimingSendContext>) | null = null;

/** The read with the claim's CTE. Every FoldedClaim's insert is the same statement, so the first one seen builds it for all. */
function claimingQueryOf(claim: FoldedClaim) {
  return (claimingQuery ??= preparedPerDb((db: Db) => claimingSendContext(db, claim)));
}

function claimingSendContext(db: Db, claim: FoldedClaim) {
  const claimed = db.$with("claim").as(claim.insert(db));
  return selectSendContext(db, { cte: claimed, column: sql<string | null>`(select "id" from ${claimed})` }).prepare("send_context_claiming");
}

function selectSendContext(db: Db, claim?: { cte: Parameters<Db["with"]>[0]; column: SQL<string | null> }) {
  const project = sql.placeholder("project");
  const channel = sql.placeholder("channel");
  // An earlier message of the key as one text[] (id, conversation, contact, body as JSON text), or null.
  const earlier = sql<
    string[] | null
  >`(select array[m.id, m.conversation_id, m.contact_id, m.body::text] from ${messages} m where m.project_id = ${project} and m.idempotency_key = ${sql.placeholder("key")} and m.created_at > ${sql.placeholder("since")}::timestamptz limit 1)`;
  const fields = {
    channel: channels,
    conversation: conversations,
    contact: contacts,
    lastCustomerMessageAt: lastCustomerMessageAtSql(channel),
    joined: sql<boolean>`case when ${channels.isSandbox} then ${joinedSql(project, channel)} else true end`,
    earlier,
  };
  return (claim ? db.with(claim.cte).select({ ...fields, claimed: claim.column }) : db.select(fields))
    .from(projects)
    .leftJoin(channels, and(eq(channels.id, channel), visibleTo(sql.placeholder("org"), sql.placeholder("b"), sql.placeholder("c"))))
    .leftJoin(conversations, and(eq(conversations.projectId, project), eq(conversations.id, sql.placeholder("conversation"))))
    .leftJoin(contacts, and(eq(contacts.projectId, project), eq(contacts.id, conversations.contactId)))
    .where(eq(projects.id, project));
}

/** The contact (selected beside it) joined the project on the sandbox channel: a participant's address is the phone's digits (phoneDigits), else the platform user id. */
function joinedSql(project: Placeholder, channel: Placeholder) {
  const address = sql`case when coalesce(${contacts.phone}, '') <> '' then regexp_replace(${contacts.phone}, '[^0-9]', '', 'g') else coalesce(${contacts.userId}, '') end`;
  return sql<boolean>`exists (select 1 from ${sandboxParticipants} sp where sp.channel_id = ${channel} and sp.project_id = ${project} and sp.address = ${address})`;
}
