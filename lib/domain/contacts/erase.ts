import type { Ctx } from "@/lib/domain/context";
import { notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/domain/audit/record";
import { getContactRowOrThrow } from "./index";
import { eraseConversationData } from "./erase-conversation";
import { CONTACT_ERASE_FILES_JOB, LATE_FILES_AFTER_MS } from "./erase-files";
import { eraseInboundEnvelopes, erasePayloads, jobMentionsOf } from "./erase-payloads";
import { deleteContactProfile, eraseContactRecords } from "./erase-records";
import { erasureTarget, orderedTypes, type ErasedDataType } from "./erase-target";

export interface ContactErased {
  object: "contact";
  id: string;
  deleted: true;
  erased: true;
  deleted_data_types: ErasedDataType[];
}

/**
 * DELETE /contacts/{id} (docs/spec/decisions.md "Contact erasure"): every row of THIS project that
 * holds the contact's personal data is deleted or redacted in one transaction; cached files are
 * deleted after commit by the contacts.erase-files job (retried), so a storage outage never leaves
 * the database half-erased. Another project of the organization is not touched, even when it knows
 * the same person under the same org-stable contact id.
 */
export async function eraseContact(ctx: Ctx, id: string): Promise<ContactErased> {
  const target = erasureTarget(await getContactRowOrThrow(ctx, id));
  const found = new Set<ErasedDataType>();
  await ctx.db.transaction(async (tx) => {
    // Deleting the profile first claims the erasure: a concurrent second DELETE finds no row and is a 404.
    if (!(await deleteContactProfile(tx, target))) throw notFound("contact", id);
    found.add("profile");
    const conversation = await eraseConversationData(tx, target, ctx.now);
    const records = await eraseContactRecords(tx, target, ctx.now);
    if (await erasePayloads(tx, target)) found.add("webhook_payloads");
    await eraseInboundEnvelopes(tx, target, conversation.channelIds);
    // Job rows (payloads, failures) that name the contact: the queue keeps finished jobs for days.
    await ctx.ports.queue.redact(jobMentionsOf(target, conversation), { tx });
    if (conversation.messages) found.add("messages");
    if (conversation.notes) found.add("notes");
    if (conversation.storageKeys.length) found.add("media");
    if (records.optIns) found.add("opt_ins");
    if (conversation.flowSubmissions) found.add("flow_submissions");
    if (records.registrationIntents) found.add("registration_intents");
    const payload = { projectId: target.projectId, keys: conversation.storageKeys };
    if (payload.keys.length) await ctx.ports.queue.send(CONTACT_ERASE_FILES_JOB, payload, { tx });
    if (conversation.cachingKeys.length) {
      // A media.cache run in flight may still write its file after this commit: delete once more later.
      await ctx.ports.queue.send(CONTACT_ERASE_FILES_JOB, { ...payload, keys: conversation.cachingKeys }, { tx, startAfter: LATE_FILES_AFTER_MS });
    }
    // The contact's id and what kinds of data went: nothing of the person, which is what was erased.
    await recordAudit({ ...ctx, db: tx }, { action: "contact.erased", target: { type: "contact", id }, details: { deleted_data_types: orderedTypes(found) } });
  });
  return { object: "contact", id, deleted: true, erased: true, deleted_data_types: orderedTypes(found) };
}
