"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListEnvelope } from "@/lib/api/schemas/common";
import { projectApi } from "./api";
import type { Role } from "./me";
import { projectQueryKey, queryKeys } from "./query";

/** Members and open invitations of the project's organization (lib/dashboard/routes/members.ts). */

export interface Member {
  object: "member";
  /** The membership id (what PATCH / DELETE take), not the user id. */
  id: string;
  user_id: string;
  email: string;
  name: string | null;
  role: Role;
  created_at: string;
}

export interface Invitation {
  object: "invitation";
  id: string;
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
}

/** The invite response: the link appears here only. */
export interface CreatedInvitation extends Invitation {
  url: string;
}

const membersKey = (projectId: string) => projectQueryKey(projectId, "members");
const invitationsKey = (projectId: string) => projectQueryKey(projectId, "invitations");

export function useMembers(projectId: string) {
  return useQuery({
    queryKey: membersKey(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<Member>>(projectId, "/members", { signal }),
    select: (list) => list.data,
  });
}

export function useInvitations(projectId: string) {
  return useQuery({
    queryKey: invitationsKey(projectId),
    queryFn: ({ signal }) => projectApi<ListEnvelope<Invitation>>(projectId, "/invitations", { signal }),
    select: (list) => list.data,
  });
}

export function useInviteMember(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    // Not kept in the mutation cache after the dialog lets go of it: the response holds a one-time secret.
    gcTime: 0,
    mutationFn: (input: { email: string; role: Role }) => projectApi<CreatedInvitation>(projectId, "/members", { method: "POST", body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: invitationsKey(projectId) }),
  });
}

export function useRevokeInvitation(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => projectApi<Invitation>(projectId, `/invitations/${encodeURIComponent(invitationId)}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: invitationsKey(projectId) }),
  });
}

export function useUpdateMemberRole(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, role }: { memberId: string; role: Role }) =>
      projectApi<Member>(projectId, `/members/${encodeURIComponent(memberId)}`, { method: "PATCH", body: { role } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: membersKey(projectId) });
      // The operator may have changed their own role: what the shell offers depends on it.
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}

export function useRemoveMember(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) => projectApi<Member & { deleted: true }>(projectId, `/members/${encodeURIComponent(memberId)}`, { method: "DELETE" }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: membersKey(projectId) });
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
