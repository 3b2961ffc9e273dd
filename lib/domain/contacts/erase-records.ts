import { and, eq, ne, or } from "drizzle-orm";
import { broadcastRecipients, contactIdentities, contacts, optIns, registrationIntents, sandboxParticipants } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { ErasureTarget } from "./erase-target";

/** Marks left where a NOT NULL column held personal text. */
const ERASED_TEXT = "[erased]";

export interface RecordErasure {
  optIns: number;
  registrationIntents: number;
}

/** The per-project records that name the contact: opt-in, registration intents, broadcast recipients, sandbox membership. */
export async function eraseContactRecords(tx: Db, target: ErasureTarget, now: Date): Promise<RecordErasure> {
  const optInRows = await tx
    .delete(optIns)
    .where(and(eq(optIns.projectId, target.projectId), eq(optIns.contactId, target.contactId)))
    .returning({ id: optIns.id });
  // Rows of another module's table (registration intents): redacted in place, the row and its status kept.
  const intents = await tx
    .update(registrationIntents)
    .set({ customerReference: ERASED_TEXT, prefilledMessage: ERASED_TEXT, metadata: null, contactId: null, updatedAt: now })
    .where(and(eq(registrationIntents.projectId, target.projectId), eq(registrationIntents.contactId, target.contactId)))
    .returning({ id: registrationIntents.id });
  await eraseBroadcastRecipients(tx, target, now);
  if (target.digits) {
    // The tester leaves the project's sandbox: the membership row is the number itself.
    await tx.delete(sandboxParticipants).where(and(eq(sandboxParticipants.projectId, target.projectId), eq(sandboxParticipants.address, target.digits)));
  }
  return { optIns: optInRows.length, registrationIntents: intents.length };
}

/** `to` is unique per broadcast and NOT NULL: "erased:<row id>" keeps both true without the number. */
async function eraseBroadcastRecipients(tx: Db, target: ErasureTarget, now: Date): Promise<void> {
  const rows = await tx
    .select({ id: broadcastRecipients.id, status: broadcastRecipients.status })
    .from(broadcastRecipients)
    .where(
      and(
        eq(broadcastRecipients.projectId, target.projectId),
        or(eq(broadcastRecipients.contactId, target.contactId), target.digits ? eq(broadcastRecipients.to, target.digits) : undefined),
      ),
    );
  for (const row of rows) {
    await tx
      .update(broadcastRecipients)
      .set({
        to: `erased:${row.id}`,
        parameters: null,
        contactId: null,
        error: null,
        updatedAt: now,
        // Not sent yet: with the number gone there is no one to send to, so it is skipped (and says why).
        ...(row.status === "pending" ? { status: "skipped" as const, skipReason: "erased" } : {}),
      })
      .where(eq(broadcastRecipients.id, row.id));
  }
}

/**
 * Deletes the project's contact row (null: there was none, a 404). Contact ids are organization-wide
 * (contact_identities): the identity rows go only when no other project of the organization still
 * has this contact, so the other project keeps its contact and its id. With the identity gone, the
 * next message from the number resolves to a new contact id.
 */
export async function deleteContactProfile(tx: Db, target: ErasureTarget): Promise<boolean> {
  const deleted = await tx
    .delete(contacts)
    .where(and(eq(contacts.projectId, target.projectId), eq(contacts.id, target.contactId)))
    .returning({ id: contacts.id });
  if (!deleted.length) return false;
  const [elsewhere] = await tx
    .select({ projectId: contacts.projectId })
    .from(contacts)
    .where(and(eq(contacts.organizationId, target.organizationId), eq(contacts.id, target.contactId), ne(contacts.projectId, target.projectId)))
    .limit(1);
  if (!elsewhere) {
    await tx
      .delete(contactIdentities)
      .where(and(eq(contactIdentities.organizationId, target.organizationId), eq(contactIdentities.contactId, target.contactId)));
  }
  return true;
}
