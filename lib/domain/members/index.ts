import { and, asc, count, desc, eq, gt, isNull } from "drizzle-orm";
import { invitations, memberships, organizations, users } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { randomBase62, sha256Hex } from "@/lib/crypto/secrets";
import { SvcError, notFound } from "@/lib/errors";
import { recordAudit } from "@/lib/domain/audit/record";
import { addMembership, createOperator, normalizeEmail, verifyOperatorPassword, type UserRow } from "./operators";
import type { Role } from "./roles";

export * from "./roles";
export { projectAccessFor, operatorOverview } from "./access";
export { setupFirstOwner, operatorCount, MIN_PASSWORD_LENGTH } from "./operators";

const INVITATION_TTL_MS = 7 * 86_400_000;

type MembershipRow = typeof memberships.$inferSelect;
type InvitationRow = typeof invitations.$inferSelect;

function memberWire(m: MembershipRow, u: UserRow) {
  return { object: "member" as const, id: m.id, user_id: u.id, email: u.email, name: u.name, role: m.role, created_at: m.createdAt.toISOString() };
}

function invitationWire(i: InvitationRow) {
  return {
    object: "invitation" as const,
    id: i.id,
    email: i.email,
    role: i.role,
    created_at: i.createdAt.toISOString(),
    expires_at: i.expiresAt.toISOString(),
  };
}

function actorRole(ctx: Ctx): Role | null {
  return ctx.actor.type === "user" ? (ctx.actor.role as Role) : null;
}

/** Only owners make, change or remove owners; admins manage everyone else. */
function assertMayManage(ctx: Ctx, ...roles: Role[]) {
  if (roles.includes("owner") && actorRole(ctx) !== "owner") {
    throw new SvcError("insufficient_scope", "Only an owner can invite, change or remove owners.", { required_scope: "owners:write" });
  }
}

export async function listMembers(ctx: Ctx) {
  const rows = await ctx.db
    .select({ m: memberships, u: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, ctx.org.id))
    .orderBy(asc(memberships.id));
  return { object: "list" as const, data: rows.map((r) => memberWire(r.m, r.u)), has_more: false };
}

export async function listInvitations(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.organizationId, ctx.org.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, ctx.now)))
    .orderBy(desc(invitations.id));
  return { object: "list" as const, data: rows.map(invitationWire), has_more: false };
}

/** Creates an invitation link (shown once: only the token's hash is kept), valid 7 days. */
export async function inviteMember(ctx: Ctx, input: { email: string; role: Role }) {
  assertMayManage(ctx, input.role);
  const email = normalizeEmail(input.email);
  const [member] = await ctx.db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, ctx.org.id), eq(users.email, email)));
  if (member) throw new SvcError("conflict", `${email} is already a member of this organization.`, { issues: { email: ["Already a member."] } });
  const token = randomBase62(40);
  // Memberships are the organization's; the entry goes to the project the operator acted from. Never the link's token.
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(invitations)
      .values({
        id: newId("invitation", ctx.now.getTime()),
        organizationId: ctx.org.id,
        email,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedByUserId: ctx.actor.type === "user" ? ctx.actor.id : null,
        expiresAt: new Date(ctx.now.getTime() + INVITATION_TTL_MS),
        createdAt: ctx.now,
      })
      .returning();
    await recordAudit({ ...ctx, db: tx }, { action: "member.invited", target: { type: "invitation", id: inserted!.id }, details: { email, role: input.role } });
    return inserted;
  });
  return { ...invitationWire(row!), url: `${ctx.settings.publicUrl}/invite/${token}` };
}

export async function revokeInvitation(ctx: Ctx, id: string) {
  const row = await ctx.db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(invitations)
      .set({ revokedAt: ctx.now })
      .where(and(eq(invitations.id, id), eq(invitations.organizationId, ctx.org.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning();
    if (!revoked) throw notFound("invitation", id);
    await recordAudit(
      { ...ctx, db: tx },
      { action: "invitation.revoked", target: { type: "invitation", id: revoked.id }, details: { email: revoked.email, role: revoked.role } },
    );
    return revoked;
  });
  return invitationWire(row);
}

async function memberOrThrow(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select({ m: memberships, u: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.id, id), eq(memberships.organizationId, ctx.org.id)));
  if (!row) throw notFound("member", id);
  return row;
}

/** An organization always keeps at least one owner. */
async function assertNotLastOwner(ctx: Ctx, member: MembershipRow) {
  if (member.role !== "owner") return;
  const [row] = await ctx.db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, ctx.org.id), eq(memberships.role, "owner")));
  if ((row?.n ?? 0) <= 1) throw new SvcError("conflict", "This is the organization's only owner. Make someone else an owner first.");
}

export async function updateMemberRole(ctx: Ctx, id: string, role: Role) {
  const { m, u } = await memberOrThrow(ctx, id);
  assertMayManage(ctx, m.role, role);
  if (role !== "owner") await assertNotLastOwner(ctx, m);
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(memberships).set({ role }).where(eq(memberships.id, m.id)).returning();
    if (m.role !== role) {
      await recordAudit(
        { ...ctx, db: tx },
        { action: "member.role_changed", target: { type: "membership", id: m.id }, details: { email: u.email, from: m.role, to: role } },
      );
    }
    return row!;
  });
  return memberWire(updated, u);
}

export async function removeMember(ctx: Ctx, id: string) {
  const { m, u } = await memberOrThrow(ctx, id);
  assertMayManage(ctx, m.role);
  await assertNotLastOwner(ctx, m);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(memberships).where(eq(memberships.id, m.id));
    await recordAudit({ ...ctx, db: tx }, { action: "member.removed", target: { type: "membership", id: m.id }, details: { email: u.email, role: m.role } });
  });
  return { ...memberWire(m, u), deleted: true as const };
}

async function openInvitation(db: Db, token: string, now: Date) {
  const [row] = await db
    .select({ i: invitations, orgName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(and(eq(invitations.tokenHash, sha256Hex(token)), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)));
  if (!row) throw new SvcError("not_found", "This invitation link is invalid, was already used, or has expired. Ask for a new one.");
  return row;
}

/** What the invitation page shows before the invitee chooses a password. */
export async function describeInvitation(db: Db, token: string, now: Date) {
  const { i, orgName } = await openInvitation(db, token, now);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, i.email));
  return {
    object: "invitation" as const,
    email: i.email,
    role: i.role,
    organization_name: orgName,
    expires_at: i.expiresAt.toISOString(),
    existing_user: Boolean(existing),
  };
}

/**
 * Accepts an invitation: a new operator chooses their name and password; an existing one proves it is
 * them with their current password. Either way they become a member with the invited role, once.
 */
export async function acceptInvitation(db: Db, token: string, input: { name?: string | undefined; password: string }, now: Date) {
  return db.transaction(async (tx) => {
    const { i } = await openInvitation(tx, token, now);
    const claimed = await tx
      .update(invitations)
      .set({ acceptedAt: now })
      .where(and(eq(invitations.id, i.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (claimed.length === 0) throw new SvcError("not_found", "This invitation link was already used.");
    const [existing] = await tx.select().from(users).where(eq(users.email, i.email));
    let user: UserRow;
    if (existing) {
      const verified = await verifyOperatorPassword(tx, i.email, input.password);
      if (!verified)
        throw new SvcError("invalid_request", `${i.email} already has an account: enter its current password to join.`, {
          issues: { password: ["Incorrect password."] },
        });
      user = verified;
    } else {
      user = await createOperator(tx, { email: i.email, name: input.name?.trim() || null, password: input.password });
    }
    await addMembership(tx, i.organizationId, user.id, i.role);
    return { object: "user" as const, id: user.id, email: user.email, name: user.name };
  });
}
