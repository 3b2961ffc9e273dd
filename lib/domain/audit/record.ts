import { eq } from "drizzle-orm";
import { auditEvents, users } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { auditEntrySchema, type AuditEntry } from "./actions";

export { AUDIT_ACTIONS } from "@/lib/shared/audit-actions";

/** An entry of the union (actions.ts) and, for the system actor, how it reads. */
export type AuditInput = AuditEntry & {
  /**
   * How a system actor reads ("svc CLI" for the admin CLI); ignored for keys and operators, whose
   * display comes from who they are.
   */
  systemDisplay?: string;
};

/**
 * What recording needs of a ctx: a full project Ctx has it, and so does the admin CLI, which acts on a
 * project row without an organization or plan loaded.
 */
export type AuditCtx = Pick<Ctx, "db" | "actor" | "now" | "ip" | "audited"> & { project: Pick<ProjectRow, "id" | "organizationId"> };

/**
 * Records an action of ctx.actor on ctx.project. Call it with the ctx whose `db` is the action's
 * transaction, so the entry exists exactly when the action does (docs/spec/decisions.md "Developer tools").
 */
export async function recordAudit(ctx: AuditCtx, input: AuditInput): Promise<void> {
  const { systemDisplay, ...given } = input;
  // A field the action does not list (a secret's value, credentials) or a target of another kind is a bug: it throws, and the action rolls back with it.
  const entry = auditEntrySchema.parse(given);
  await ctx.db.insert(auditEvents).values({
    id: newId("auditEvent", ctx.now.getTime()),
    projectId: ctx.project.id,
    organizationId: ctx.project.organizationId,
    actorType: ctx.actor.type,
    actorId: ctx.actor.type === "system" ? null : ctx.actor.id,
    actorDisplay: await actorDisplay(ctx, systemDisplay),
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    details: entry.details,
    ip: ctx.ip ?? null,
    createdAt: ctx.now,
  });
  // The route wrapper checks these against the route's declared actions (lib/api/audit-declaration.ts).
  ctx.audited?.push(entry.action);
}

async function actorDisplay(ctx: AuditCtx, systemDisplay: string | undefined): Promise<string> {
  const actor = ctx.actor;
  if (actor.type === "api_key") return actor.name ? `${actor.name} (${actor.display})` : actor.display;
  if (actor.type === "system") return systemDisplay ?? "svc";
  const [user] = await ctx.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, actor.id));
  return user?.email ?? actor.id;
}
