/**
 * Adding recipients: each row is judged on its own (a bad number, an unknown contact, parameters that
 * do not fit the template → `errors[{index, message}]`), the rest are written in one statement, and a
 * number already in the broadcast (or twice in the call) counts as a duplicate, not an error. The
 * rules that need no database are lib/shared/broadcasts/recipients.ts: the dashboard runs them on a
 * CSV before uploading it, so it shows these same words first.
 */
import { and, eq, inArray } from "drizzle-orm";
import { broadcastRecipients, contactIdentities, contacts } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { phoneDigits } from "@/lib/domain/contacts/identity";
import type { TemplateRow } from "@/lib/domain/templates/serialize";
import { SvcError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { RecipientParameters } from "@/lib/shared/broadcasts/parameters";
import { isRecipientProblem, recipientParametersProblem, recipientWho, type RecipientInput } from "@/lib/shared/broadcasts/recipients";
import { templateShape } from "@/lib/shared/templates/validate";

export type { RecipientInput };

export interface JudgedRecipient {
  to: string;
  contactId: string | null;
  parameters: RecipientParameters | null;
}

export interface RowError {
  index: number;
  message: string;
}

/** The rows that can be written (first occurrence of each number) and the errors of the rest; duplicates within the call are dropped. */
export async function judgeRecipients(
  ctx: Ctx,
  template: TemplateRow,
  inputs: RecipientInput[],
): Promise<{ rows: JudgedRecipient[]; errors: RowError[]; repeated: number }> {
  const shape = templateShape(template.components, { parameter_format: template.parameterFormat });
  const byContactId = await phonesOfContacts(
    ctx,
    inputs.flatMap((r) => (r.contact_id ? [r.contact_id] : [])),
  );
  const rows: JudgedRecipient[] = [];
  const errors: RowError[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  inputs.forEach((input, index) => {
    const judged = judgeOne(input, byContactId);
    if (typeof judged === "string") return errors.push({ index, message: judged });
    const problem = recipientParametersProblem(shape, input.parameters ?? null);
    if (problem) return errors.push({ index, message: problem.message });
    if (seen.has(judged.to)) return repeated++;
    seen.add(judged.to);
    rows.push({ ...judged, parameters: input.parameters ?? null });
  });
  const known = await contactsOfPhones(
    ctx,
    rows.filter((r) => !r.contactId).map((r) => r.to),
  );
  for (const row of rows) row.contactId ??= known.get(row.to) ?? null;
  return { rows, errors, repeated };
}

/** The row's number or contact (lib/shared/broadcasts/recipients.ts, the words the dashboard shows before upload), then the contact's number. */
function judgeOne(input: RecipientInput, byContactId: Map<string, string | null>): { to: string; contactId: string | null } | string {
  const who = recipientWho(input);
  if (isRecipientProblem(who)) return who.message;
  if ("to" in who) return { to: who.to, contactId: null };
  if (!byContactId.has(who.contactId)) return `No contact with id '${who.contactId}' in this project.`;
  const phone = byContactId.get(who.contactId);
  if (!phone) return `Contact ${who.contactId} has no phone number, so a template cannot reach them.`;
  return { to: phoneDigits(phone), contactId: who.contactId };
}

/** Writes the judged rows; a number already in the broadcast is skipped by the unique index. Returns how many were added. */
export async function insertRecipients(ctx: Ctx, broadcastId: string, rows: JudgedRecipient[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await ctx.db
    .insert(broadcastRecipients)
    .values(
      rows.map((row) => ({
        id: newId("broadcastRecipient", ctx.now.getTime()),
        broadcastId,
        projectId: ctx.project.id,
        to: row.to,
        contactId: row.contactId,
        parameters: row.parameters,
        status: "pending" as const,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: broadcastRecipients.id });
  return inserted.length;
}

async function phonesOfContacts(ctx: Ctx, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: contacts.id, phone: contacts.phone })
    .from(contacts)
    .where(and(eq(contacts.projectId, ctx.project.id), inArray(contacts.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, r.phone]));
}

/** The project's contacts for these numbers (organization-wide identities), without creating any. */
export async function contactsOfPhones(ctx: Pick<Ctx, "db" | "project" | "org">, digits: string[]): Promise<Map<string, string>> {
  if (digits.length === 0) return new Map();
  const rows = await ctx.db
    .select({ value: contactIdentities.value, id: contacts.id })
    .from(contactIdentities)
    .innerJoin(contacts, and(eq(contacts.projectId, ctx.project.id), eq(contacts.id, contactIdentities.contactId)))
    .where(and(eq(contactIdentities.organizationId, ctx.org.id), eq(contactIdentities.kind, "phone"), inArray(contactIdentities.value, digits)));
  return new Map(rows.map((r) => [r.value, r.id]));
}

export function notEditable(id: string, status: string): SvcError {
  return new SvcError(
    "broadcast_not_editable",
    `Broadcast ${id} is ${status}: recipients can only be added while it is DRAFT or SCHEDULED. Create a new broadcast for more recipients.`,
    { broadcast_id: id, status },
  );
}
