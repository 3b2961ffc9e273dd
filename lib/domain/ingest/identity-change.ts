import { and, eq, or } from "drizzle-orm";
import { contacts } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { aliasIdentity, setContactIdentity } from "@/lib/domain/contacts/identity";
import { emitEvent } from "@/lib/domain/events";
import type { ApplyOutcome } from "./apply";
import { moveParticipant } from "./sandbox-join";
import type { InboundOf } from "./resolve";

/**
 * A number (or business-scoped user id) migration: the contacts known by the previous identity keep
 * their id, the new identity resolves to them from now on, and contact.identity.updated tells each
 * project. On the sandbox the tester's participation follows the new number.
 */
export async function applyIdentityChange(ctx: SystemCtx, channel: ChannelRow, event: InboundOf<"identity_change">): Promise<ApplyOutcome> {
  const { db, now } = ctx;
  const previous = event.previous;
  const current = event.current;
  const who = or(
    previous.address ? eq(contacts.phone, `+${previous.address}`) : undefined,
    previous.user_id ? eq(contacts.userId, previous.user_id) : undefined,
  );
  if (!who) return "identity";
  const scope = channel.organizationId
    ? or(eq(contacts.channelId, channel.id), eq(contacts.organizationId, channel.organizationId))
    : eq(contacts.channelId, channel.id);
  // The new identity and each contact.identity.updated commit together: a contact changed without its
  // event would never be announced, since a retry finds the contact changed already.
  await db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const matches = await tx.select().from(contacts).where(and(scope, who));
    if (channel.isSandbox && previous.address && current.address && previous.address !== current.address) {
      await moveParticipant(tx, channel, previous.address, current.address);
    }
    for (const contact of matches) {
      const phone = current.address ? `+${current.address}` : contact.phone;
      const userId = current.user_id ?? contact.userId;
      // Both identities point at the contact: the new number, and the new user id on its own.
      if (current.address) await aliasIdentity(tx, contact.organizationId, { platform: channel.platform, phone: current.address }, contact.id);
      if (current.user_id) await aliasIdentity(tx, contact.organizationId, { platform: channel.platform, userId: current.user_id }, contact.id);
      if (phone === contact.phone && userId === contact.userId) continue;
      await setContactIdentity(tx, contact, { phone, userId, parentUserId: current.parent_user_id ?? contact.parentUserId }, now);
      await emitEvent(txCtx, {
        project: { id: contact.projectId },
        type: "contact.identity.updated",
        payload: {
          contact_id: contact.id,
          channel_id: channel.id,
          previous: { phone: contact.phone, user_id: contact.userId },
          current: { phone, user_id: userId },
          timestamp: event.timestamp,
        },
        at: now,
        dedupeKey: `identity:${contact.id}:${event.timestamp}`,
      });
    }
  });
  return "identity";
}
