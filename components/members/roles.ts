import { ROLE_LABELS, type Role } from "@/lib/client/me";

/** One line per role, from docs/dashboard.md "Roles". */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "Reads everything in the organization's projects, including keys and members.",
  developer: "Everything a viewer can, plus every API action (send, channels, webhooks…) and API keys.",
  admin: "Everything a developer can, plus inviting, re-roling and removing members (not owners).",
  owner: "Everything, including making and removing owners.",
};

/** Least to most powerful: the order selects list them in. */
const ORDER: Role[] = ["viewer", "developer", "admin", "owner"];

/** The roles this operator may hand out: only owners make owners. */
export function assignableRoles(myRole: Role | null): Role[] {
  return myRole === "owner" ? ORDER : ORDER.filter((role) => role !== "owner");
}

export { ROLE_LABELS };
