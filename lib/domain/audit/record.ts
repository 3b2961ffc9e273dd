import { eq } from "drizzle-orm";
import { auditEvents, users } from "@/lib/db/schema";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import { newId } from "@/lib/ids";

export const AUDIT_ACTIONS = [
  "api_key.created",
  "api_key.revoked",
  "automation.created",
  "automation.updated",
  "automation.deleted",
  "config.applied",
  "function.deployed",
  "function.rolled_back",
  "project.webhook_secret_rotated",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditInput {
  action: AuditAction;
  target: { type: string; id: string | null };
  /** Facts worth keeping about the action (never a secret or a key's value). */
  details?: Record<string, unknown>;
  /**
   * How a system actor reads ("svc CLI" for the admin CLI); ignored for keys and operators, whose
   * display comes from who they are.
   */
  systemDisplay?: string;
}

/**
 * What recording needs of a ctx: a full project Ctx has it, and so does the admin CLI, which acts on a
 * project row without an organization or plan loaded.
 */
export type AuditCtx = Pick<Ctx, "db" | "actor" | "now" | "ip"> & { project: Pick<ProjectRow, "id" | "organizationId"> };

/**
 * Records an action of ctx.actor on ctx.project. Call it with the ctx whose `db` is the action's
 * transaction, so the entry exists exactly when the action does (docs/spec/decisions.md "Developer tools").
 */
export async function recordAudit(ctx: AuditCtx, input: AuditInput): Promise<void> {
  await ctx.db.insert(auditEvents).values({
    id: newId("auditEvent", ctx.now.getTime()),
    projectId: ctx.project.id,
    organizationId: ctx.project.organizationId,
    actorType: ctx.actor.type,
    actorId: ctx.actor.type === "system" ? null : ctx.actor.id,
    actorDisplay: await actorDisplay(ctx, input.systemDisplay),
    action: input.action,
    targetType: input.target.type,
    targetId: input.target.id,
    details: input.details ?? null,
    ip: ctx.ip ?? null,
    createdAt: ctx.now,
  });
}

async function actorDisplay(ctx: AuditCtx, systemDisplay: string | undefined): Promise<string> {
  const actor = ctx.actor;
  if (actor.type === "api_key") return actor.name ? `${actor.name} (${actor.display})` : actor.display;
  if (actor.type === "system") return systemDisplay ?? "svc";
  const [user] = await ctx.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, actor.id));
  return user?.email ?? actor.id;
}
