import { SCOPES } from "@/lib/shared/scopes";

export const ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/**
 * Permissions that exist only in the dashboard (no API key can hold them): managing the project's
 * API keys and the organization's members.
 */
export const DASHBOARD_SCOPES = ["keys:read", "keys:write", "members:read", "members:write", "owners:write"] as const;
export type DashboardScope = (typeof DASHBOARD_SCOPES)[number];

const READ_SCOPES = SCOPES.filter((s) => s.endsWith(":read"));

/**
 * What each role may do, as scope lists the route wrapper checks exactly like an API key's scopes.
 * viewer reads; developer also writes through the API and manages keys; admin also manages members;
 * owner also manages owners.
 */
const ROLE_SCOPES: Record<Role, readonly string[]> = {
  viewer: [...READ_SCOPES, "keys:read", "members:read"],
  // Erasing a person's data cannot be undone: owners and admins only.
  developer: [...SCOPES.filter((s) => s !== "contacts:erase"), "keys:read", "keys:write", "members:read"],
  admin: [...SCOPES, "keys:read", "keys:write", "members:read", "members:write"],
  owner: [...SCOPES, ...DASHBOARD_SCOPES],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function scopesOfRole(role: Role): readonly string[] {
  return ROLE_SCOPES[role];
}
