import { useQuery } from "@tanstack/react-query";
import { useParams } from "next/navigation";
import { apiFetch } from "./api";
import { queryKeys } from "./query";
import { useHydrated } from "./use-hydrated";

// No "use client" here on purpose: `can`, `findProject` and the types stay callable from server code;
// the hooks are only ever called from client components.

/** Mirrors lib/domain/members/roles.ts (the server's list); kept here so the browser bundle stays server-free. */
export type Role = "owner" | "admin" | "developer" | "viewer";

export interface MeProject {
  id: string;
  name: string;
}

export interface MeOrganization {
  id: string;
  name: string;
  role: Role;
  projects: MeProject[];
}

/** GET /api/dashboard/me (docs/dashboard.md). */
export interface Me {
  user: { id: string; email: string; name: string | null };
  organizations: MeOrganization[];
}

/** The signed-in operator and every organization + project they can open. */
export function useMe() {
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: ({ signal }) => apiFetch<Me>("/api/dashboard/me", { signal }),
    // Memberships change rarely; a minute keeps the shell from refetching on every page.
    staleTime: 60_000,
  });
}

/** Where a project sits in `me`: the project, its organization and the operator's role there. */
export function findProject(me: Me | undefined, projectId: string | undefined): { project: MeProject; organization: MeOrganization } | null {
  if (!me || !projectId) return null;
  for (const organization of me.organizations) {
    const project = organization.projects.find((candidate) => candidate.id === projectId);
    if (project) return { project, organization };
  }
  return null;
}

/** The first project the operator can open (where "/" sends them), or null when they have none. */
export function firstProjectId(me: Me | undefined): string | null {
  for (const organization of me?.organizations ?? []) {
    const project = organization.projects[0];
    if (project) return project.id;
  }
  return null;
}

/**
 * The project of the current route (`/projects/[projectId]/...`). `project` is null while `me` loads
 * and when the id is not one of the operator's projects (`isLoading` tells the two apart).
 *
 * While React hydrates, this says "loading" whatever the cache holds, as the server HTML did: a page
 * behind a Suspense boundary (webhooks, inbox, audit) can hydrate after the shell's /me has answered,
 * and rendering the role's buttons then is a different tree from the server's (React error #418).
 */
export function useCurrentProject() {
  const params = useParams<{ projectId?: string }>();
  const projectId = typeof params?.projectId === "string" ? params.projectId : undefined;
  const query = useMe();
  const hydrated = useHydrated();
  const me = hydrated ? query.data : undefined;
  const found = findProject(me, projectId);
  return {
    projectId,
    me,
    project: found?.project ?? null,
    organization: found?.organization ?? null,
    role: found?.organization.role ?? null,
    isLoading: !hydrated || query.isLoading,
    error: hydrated ? query.error : null,
  };
}

/**
 * Things the dashboard hides or disables by role (docs/dashboard.md, "Roles"):
 * read — everything a project shows, including the key and member lists (every role);
 * write — every API write: send, channels, projects, webhooks, sandbox (developer and up);
 * keys — create and revoke API keys (developer and up);
 * members — invite, re-role and remove non-owner members (admin and up);
 * owners — make, re-role and remove owners (owner only);
 * erase — erase a contact's personal data (admin and up).
 */
export type Action = "read" | "write" | "keys" | "members" | "owners" | "erase";

const RANK: Record<Role, number> = { viewer: 0, developer: 1, admin: 2, owner: 3 };
// erase: DELETE /contacts/{id} (contacts:erase), held by admins and owners only (lib/domain/members/roles.ts).
const NEEDS: Record<Action, Role> = { read: "viewer", write: "developer", keys: "developer", members: "admin", owners: "owner", erase: "admin" };

/** Only for what the UI offers: the server checks every request itself (403 insufficient_scope). */
export function can(role: Role | null | undefined, action: Action): boolean {
  if (!role) return false;
  return RANK[role] >= RANK[NEEDS[action]];
}

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", developer: "Developer", viewer: "Viewer" };
