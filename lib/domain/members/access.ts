import { and, asc, eq, inArray } from "drizzle-orm";
import { memberships, organizations, plans, projects, users } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { OrganizationRow, PlanRow, ProjectRow } from "@/lib/domain/context";
import type { UserRow } from "./operators";
import type { Role } from "./roles";

export interface ProjectAccess {
  user: UserRow;
  role: Role;
  org: OrganizationRow;
  project: ProjectRow;
  plan: PlanRow;
}

/**
 * What an operator may act on in one project: their role in the project's organization. Null when the
 * user is unknown, not a member there, or the project does not exist (all the same 404 to the caller).
 */
export async function projectAccessFor(db: Db, userId: string, projectId: string): Promise<ProjectAccess | null> {
  const [row] = await db
    .select({ user: users, role: memberships.role, org: organizations, project: projects, plan: plans })
    .from(projects)
    .innerJoin(organizations, eq(organizations.id, projects.organizationId))
    .innerJoin(plans, eq(plans.id, organizations.planId))
    .innerJoin(memberships, and(eq(memberships.organizationId, organizations.id), eq(memberships.userId, userId)))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(projects.id, projectId));
  return row ?? null;
}

export interface OperatorOverview {
  user: { id: string; email: string; name: string | null };
  organizations: { id: string; name: string | null; role: Role; projects: { id: string; name: string }[] }[];
}

/** The signed-in operator, their organizations (oldest first) and each one's projects (oldest first). */
export async function operatorOverview(db: Db, userId: string): Promise<OperatorOverview | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const orgs = await db
    .select({ id: organizations.id, name: organizations.name, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
  const projectRows = orgs.length
    ? await db
        .select({ id: projects.id, name: projects.name, organizationId: projects.organizationId })
        .from(projects)
        .where(
          inArray(
            projects.organizationId,
            orgs.map((o) => o.id),
          ),
        )
        .orderBy(asc(projects.id))
    : [];
  return {
    user: { id: user.id, email: user.email, name: user.name },
    organizations: orgs.map((o) => ({
      id: o.id,
      name: o.name,
      role: o.role,
      projects: projectRows.filter((p) => p.organizationId === o.id).map(({ id, name }) => ({ id, name })),
    })),
  };
}
