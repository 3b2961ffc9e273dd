import type { Db } from "@/lib/ports/db/types";
import type { organizations, plans, projects } from "@/lib/db/schema";

export type OrganizationRow = typeof organizations.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;

/** Who is acting: an API key (public API), an operator (dashboard) or the system (jobs, bootstrap). */
export type Actor =
  | { type: "api_key"; id: string; name: string | null; prefix: string; display: string; scopes: string[] }
  | { type: "user"; id: string; role: string }
  | { type: "system" };

/**
 * What every domain verb gets. Every query a verb makes filters by ctx.project (or ctx.org), so one
 * project can never read or change another's rows.
 */
export interface Ctx {
  db: Db;
  org: OrganizationRow;
  project: ProjectRow;
  plan: PlanRow;
  actor: Actor;
  now: Date;
}
