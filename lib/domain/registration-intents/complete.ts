import { and, eq, sql } from "drizzle-orm";
import { projects, registrationIntents } from "@/lib/db/schema";
import type { ProjectRow, SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { recordOptIn, setContactReference, type ContactRow } from "@/lib/domain/contacts/identity";
import type { Db } from "@/lib/ports/db/types";
import { effectiveStatus, type RegistrationIntentRow } from "./serialize";
import { tokenIn } from "./token";

export interface InboundIntent {
  intent: RegistrationIntentRow;
  project: ProjectRow;
}

/**
 * The PENDING intent an inbound text on `channel` names, inside the message's transaction (ctx.db).
 * Texts without a token-shaped word cost nothing. The row is locked: two numbers sending the same
 * token at once complete it once, and the second message is ordinary. Another channel's intent,
 * a completed one and an expired one are all "no intent" (an expired one is written EXPIRED here).
 */
export async function intentForInbound(ctx: SystemCtx, channel: ChannelRow, text: string | null | undefined): Promise<InboundIntent | null> {
  const token = tokenIn(text);
  if (!token) return null;
  const intent = await lockIntent(ctx.db, token, channel.id);
  if (!intent || intent.channelId !== channel.id || intent.status !== "PENDING") return null;
  if (effectiveStatus(intent, ctx.now) === "EXPIRED") {
    await ctx.db
      .update(registrationIntents)
      .set({ status: "EXPIRED", updatedAt: ctx.now })
      .where(and(eq(registrationIntents.id, intent.id), eq(registrationIntents.status, "PENDING")));
    return null;
  }
  const [project] = await ctx.db.select().from(projects).where(eq(projects.id, intent.projectId));
  return project ? { intent, project } : null;
}

/** By the exact token (the unique index); only when a keyboard changed its case, case-insensitively on the channel. */
async function lockIntent(db: Db, token: string, channelId: string): Promise<RegistrationIntentRow | null> {
  const [exact] = await db.select().from(registrationIntents).where(eq(registrationIntents.token, token)).for("update");
  if (exact) return exact;
  const [folded] = await db
    .select()
    .from(registrationIntents)
    .where(and(eq(registrationIntents.channelId, channelId), sql`lower(${registrationIntents.token}) = ${token.toLowerCase()}`))
    .limit(1)
    .for("update");
  return folded ?? null;
}

/**
 * Completes the intent with the message that carried its token, in that message's transaction: the
 * contact gets the customer reference (so this message's and later events carry contact_reference)
 * and an active opt-in. Returns the contact as it now is.
 */
export async function completeIntent(ctx: SystemCtx, input: { intent: RegistrationIntentRow; contact: ContactRow; messageId: string }): Promise<ContactRow> {
  const { db, now } = ctx;
  const { intent, contact } = input;
  await db
    .update(registrationIntents)
    .set({ status: "COMPLETED", completedAt: now, contactId: contact.id, messageId: input.messageId, updatedAt: now })
    .where(eq(registrationIntents.id, intent.id));
  await setContactReference(db, intent.projectId, contact.id, intent.customerReference, now);
  await recordOptIn(db, intent.projectId, contact.id, "registration_intent", now);
  return { ...contact, referenceId: intent.customerReference };
}
