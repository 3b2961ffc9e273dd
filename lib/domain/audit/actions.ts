import { z } from "zod";
import { ID_PREFIXES } from "@/lib/ids";
import { CONNECTOR_TYPES, THREAD_OWNERS } from "@/lib/db/schema";
import { ROLES } from "@/lib/domain/members/roles";
import { AUDIT_ACTION_TARGETS, AUDIT_ACTIONS, AUDIT_TARGET_KINDS, type AuditAction, type AuditTargetType } from "@/lib/shared/audit-actions";

/**
 * One parsed union of audit entries (docs/api-decisions.md "Audit log"): each action names its target
 * type (lib/shared/audit-actions.ts) and the facts it may carry. Every details object is strict, so a
 * field that is not listed here (a secret's value, a key, credentials) is refused when the entry is
 * written, not discovered later in the log. Secrets appear by name only.
 */

const name = z.string().max(200);
const id = z.string().max(200);
const PROJECT_ROUTING = ["EXTERNAL", "FLOWS", "AGENT"] as const;
/** A channel's own routing; null follows the project's. */
const CHANNEL_ROUTING = z.enum(["NONE", "FLOWS", "EXTERNAL"]).nullable();

/** A URL as the log keeps it: no user info, query or fragment (where tokens hide): urlWithoutSecrets. */
const loggedUrl = z
  .string()
  .max(2000)
  .refine((value) => !/[?#]/.test(value) && !/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value), "A logged URL has no credentials, query or fragment.");

const connectorFacts = { business_agent_id: id, name, type: z.enum(CONNECTOR_TYPES) };

export const AUDIT_DETAILS = {
  "api_key.created": z.strictObject({
    name: name.nullable(),
    kind: z.enum(["secret", "publishable"]),
    display: z.string().max(100),
    scopes: z.array(z.string().max(100)),
    via: z.literal("cli_login").optional(),
  }),
  "api_key.revoked": z.strictObject({ name: name.nullable(), kind: z.enum(["secret", "publishable"]), display: z.string().max(100) }),
  "member.invited": z.strictObject({ email: z.string().max(320), role: z.enum(ROLES) }),
  "invitation.revoked": z.strictObject({ email: z.string().max(320), role: z.enum(ROLES) }),
  "member.role_changed": z.strictObject({ email: z.string().max(320), from: z.enum(ROLES), to: z.enum(ROLES) }),
  "member.removed": z.strictObject({ email: z.string().max(320), role: z.enum(ROLES) }),
  "project.webhook_url_changed": z.strictObject({ from: loggedUrl.nullable(), to: loggedUrl.nullable() }),
  "project.webhook_secret_rotated": z.strictObject({
    previous_secret_expires_at: z.iso.datetime().nullable().optional(),
    /** generated: POST rotate-webhook-secret; provided: set in PATCH /projects/{id}; removed: signing turned off. */
    source: z.enum(["generated", "provided", "removed"]).optional(),
  }),
  "project.routing_changed": z.strictObject({ from: z.enum(PROJECT_ROUTING), to: z.enum(PROJECT_ROUTING) }),
  "config.applied": z.strictObject({ created: z.number().int(), updated: z.number().int(), deleted: z.number().int(), unchanged: z.number().int() }),
  "automation.created": z.strictObject({ config_key: name, name, position: z.number().int() }),
  /** The fields that changed, named as the Config page's diff names them (config/compare.ts), and "order". */
  "automation.updated": z.strictObject({ config_key: name, changes: z.array(z.string().max(40)) }),
  "automation.deleted": z.strictObject({ config_key: name, name }),
  "channel.connected": z.strictObject({
    platform: z.string().max(40),
    display_name: name.nullable(),
    phone_number: z.string().max(40).nullable(),
    routing_mode: CHANNEL_ROUTING,
  }),
  "channel.disconnected": z.strictObject({ platform: z.string().max(40), display_name: name.nullable(), phone_number: z.string().max(40).nullable() }),
  "channel.routing_changed": z.strictObject({ display_name: name.nullable(), from: CHANNEL_ROUTING, to: CHANNEL_ROUTING }),
  "function.deployed": z.strictObject({
    slug: name,
    version_id: id,
    version_number: z.number().int(),
    runtime: z.enum(["PLAIN", "WFP"]),
    bytes: z.number().int(),
  }),
  "function.rolled_back": z.strictObject({ slug: name, version_id: id, version_number: z.number().int(), rollback_from: id.nullable() }),
  /** A secret by its NAME: its value never reaches the log. */
  "function.secret_set": z.strictObject({ slug: name, name: z.string().max(64), created: z.boolean() }),
  "function.secret_deleted": z.strictObject({ slug: name, name: z.string().max(64) }),
  "business_agent.enabled": z.strictObject({ channel_id: id }),
  "business_agent.disabled": z.strictObject({ channel_id: id }),
  "connector.created": z.strictObject({ ...connectorFacts, has_secret: z.boolean() }),
  /** secret_change says what happened to its stored secret (set, removed or unchanged), never the secret. */
  "connector.updated": z.strictObject({
    ...connectorFacts,
    changed: z.array(z.enum(["name", "type", "config", "status"])),
    secret_change: z.enum(["set", "removed", "unchanged"]),
  }),
  "connector.deleted": z.strictObject(connectorFacts),
  "thread.taken_over": z.strictObject({
    channel_id: id,
    contact_id: id,
    conversation_id: id.nullable(),
    from: z.enum(THREAD_OWNERS),
    reason: z.string().max(500).nullable(),
  }),
  "thread.passed": z.strictObject({
    channel_id: id,
    contact_id: id,
    conversation_id: id.nullable(),
    from: z.enum(THREAD_OWNERS),
    to: z.enum(THREAD_OWNERS),
    business_agent_id: id.nullable(),
    reason: z.string().max(500).nullable(),
  }),
  "flow.published": z.strictObject({ name, revision: z.number().int(), channel_id: id, copy: z.boolean() }),
  "template.submitted": z.strictObject({ name, language: z.string().max(20), category: z.string().max(40), channel_id: id }),
  "template.deleted": z.strictObject({ name, language: z.string().max(20) }),
  "broadcast.sent": z.strictObject({ name, status: z.enum(["SENDING", "SCHEDULED"]), resumed: z.boolean(), recipients: z.number().int() }),
  "broadcast.paused": z.strictObject({ name }),
  "broadcast.cancelled": z.strictObject({ name, previous_status: z.string().max(40) }),
  /** Which kinds of data went (no name, number or message of the person: they are what was erased). */
  "contact.erased": z.strictObject({ deleted_data_types: z.array(z.string().max(40)) }),
  /** Who it went to (a user id, null: unassigned) and from; whether the handoff was turned on with it. Names are not kept: ids read back through the members list. */
  "conversation.assigned": z.strictObject({ from: id.nullable(), to: id.nullable(), handoff_turned_on: z.boolean() }),
  /** The note's id only: its text may hold the customer's details, and erasure deletes notes, not log entries. */
  "conversation.note_added": z.strictObject({ note_id: id }),
} satisfies Record<AuditAction, z.ZodObject>;

/** An id of the registry kind its target type names (lib/ids.ts), e.g. a channel's `ch_…`. */
function targetId(type: AuditTargetType) {
  const prefix = `${ID_PREFIXES[AUDIT_TARGET_KINDS[type]]}_`;
  return z
    .string()
    .max(200)
    .refine((value) => value.startsWith(prefix), `A ${type} id starts with ${prefix}.`);
}

function entrySchema<A extends AuditAction>(action: A) {
  const type = AUDIT_ACTION_TARGETS[action];
  return z.strictObject({
    action: z.literal(action),
    target: z.strictObject({ type: z.literal(type), id: targetId(type) }),
    details: AUDIT_DETAILS[action],
  });
}

type Details = typeof AUDIT_DETAILS;

/** One audit entry as a verb hands it to recordAudit: an unknown action or a field its action does not list does not compile. */
export type AuditEntry = {
  [A in AuditAction]: { action: A; target: { type: (typeof AUDIT_ACTION_TARGETS)[A]; id: string }; details: z.input<Details[A]> };
}[AuditAction];

/** The same union at run time: recordAudit parses every entry before it is written. */
export const auditEntrySchema = z.discriminatedUnion(
  "action",
  AUDIT_ACTIONS.map(entrySchema) as unknown as [ReturnType<typeof entrySchema>, ...ReturnType<typeof entrySchema>[]],
) as unknown as z.ZodType<AuditEntry, AuditEntry>;

/** A URL without what may be a credential (user info, query, fragment), for project.webhook_url_changed. */
export function urlWithoutSecrets(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return null;
  }
}
