"use client";

import { useState } from "react";
import { Button, ConfirmDialog, EmptyState, ErrorState, PageHeader, PlusIcon, SkeletonGroup, SkeletonRows, UsersIcon, useToast } from "@/components/ui";
import { can, useCurrentProject, type Role } from "@/lib/client/me";
import { useInvitations, useMembers, useRemoveMember, useRevokeInvitation, useUpdateMemberRole, type Invitation, type Member } from "@/lib/client/members";
import { InvitationsList } from "./invitations-list";
import { InviteDialog } from "./invite-dialog";
import { MembersList, memberLabel } from "./members-list";
import { ROLE_LABELS } from "./roles";

export function MembersPage({ projectId }: { projectId: string }) {
  const { role, organization, me } = useCurrentProject();
  const canManage = can(role, "members");
  const orgName = organization?.name ?? "this organization";
  const members = useMembers(projectId);
  const invitations = useInvitations(projectId);
  const updateRole = useUpdateMemberRole(projectId);
  const removeMember = useRemoveMember(projectId);
  const revokeInvitation = useRevokeInvitation(projectId);
  const toast = useToast();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  const changeRole = (member: Member, next: Role) => {
    updateRole.mutate(
      { memberId: member.id, role: next },
      {
        onSuccess: (updated) => toast.show({ tone: "success", title: `${memberLabel(updated)} is now ${ROLE_LABELS[updated.role].toLowerCase()}` }),
        onError: (error) => toast.show({ tone: "danger", title: `Couldn't change ${memberLabel(member)}'s role`, description: error.message }),
      },
    );
  };

  const removingMe = removing !== null && removing.user_id === me?.user.id;
  const inviteButton = canManage && (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setInviting(true)}>
      Invite member
    </Button>
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Members"
        description={`People in ${orgName}. Everyone here can open every project of the organization, with what their role allows.`}
        actions={inviteButton}
        className="mb-0"
      />

      {members.isPending ? (
        <SkeletonGroup label="Loading members">
          <SkeletonRows rows={3} columns={3} />
        </SkeletonGroup>
      ) : members.isError ? (
        <ErrorState error={members.error} title="Couldn't load members" onRetry={() => void members.refetch()} retrying={members.isFetching} />
      ) : members.data.length === 0 ? (
        <EmptyState icon={<UsersIcon />} title="No members" description="Invite a teammate to work on this organization's projects." action={inviteButton} />
      ) : (
        <MembersList
          members={members.data}
          myUserId={me?.user.id}
          myRole={role}
          savingId={updateRole.isPending ? (updateRole.variables?.memberId ?? null) : null}
          onChangeRole={changeRole}
          onRemove={setRemoving}
        />
      )}

      <InvitationsList
        invitations={invitations.data}
        isPending={invitations.isPending}
        error={invitations.error}
        onRetry={() => void invitations.refetch()}
        canManage={canManage}
        onRevoke={setRevoking}
      />

      {!canManage && members.isSuccess && <p className="text-xs text-slate-500">Only admins and owners can invite, re-role or remove members.</p>}

      {inviting && <InviteDialog projectId={projectId} myRole={role} organizationName={orgName} onClose={() => setInviting(false)} />}

      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          const removed = await removeMember.mutateAsync(removing.id);
          toast.show({ tone: "success", title: `${memberLabel(removed)} removed from ${orgName}` });
        }}
        title={removingMe ? `Leave ${orgName}?` : removing ? `Remove ${memberLabel(removing)}?` : "Remove member?"}
        description={
          removingMe
            ? "You lose access to every project of this organization at once."
            : `They lose access to every project of ${orgName} at once. You can invite them again later.`
        }
        confirmLabel={removingMe ? "Leave" : "Remove member"}
      />
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await revokeInvitation.mutateAsync(revoking.id);
          toast.show({ tone: "success", title: `Invitation for ${revoking.email} revoked` });
        }}
        title={revoking ? `Revoke the invitation for ${revoking.email}?` : "Revoke invitation?"}
        description="The link stops working at once. You can invite them again later."
        confirmLabel="Revoke invitation"
      />
    </div>
  );
}
