import type { OrganizationRow, PlanRow, ProjectRow } from "@/lib/domain/context";
import type { Role } from "@/lib/domain/members/roles";

/** A signed-in operator acting in one project of an organization they belong to (the dashboard). */
export interface OperatorPrincipal {
  user: { id: string; email: string; name: string | null };
  role: Role;
  /** The role's scopes (lib/domain/members/roles.ts), checked exactly like an API key's. */
  scopes: readonly string[];
  org: OrganizationRow;
  project: ProjectRow;
  plan: PlanRow;
}
