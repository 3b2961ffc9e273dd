"use client";

import { Badge, Button, Card, CardHeader, ErrorState, Skeleton, SkeletonGroup, Time } from "@/components/ui";
import type { Invitation } from "@/lib/client/members";
import { ROLE_LABELS } from "./roles";

export interface InvitationsListProps {
  invitations: Invitation[] | undefined;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
  canManage: boolean;
  onRevoke: (invitation: Invitation) => void;
}

/** Open invitations: nothing at all when there are none (an empty card would only add noise). */
export function InvitationsList({ invitations, isPending, error, onRetry, canManage, onRevoke }: InvitationsListProps) {
  if (isPending) {
    return (
      <SkeletonGroup label="Loading invitations">
        <Skeleton className="h-24 w-full" />
      </SkeletonGroup>
    );
  }
  if (error) return <ErrorState error={error} title="Couldn't load invitations" onRetry={onRetry} />;
  if (!invitations?.length) return null;

  return (
    <Card aria-labelledby="invitations-heading">
      <CardHeader
        title={<span id="invitations-heading">Pending invitations</span>}
        description="Each link works once and expires 7 days after it was created."
      />
      <ul className="divide-y divide-slate-100">
        {invitations.map((invitation) => (
          <li key={invitation.id} data-invitation-email={invitation.email} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5">
            <div className="min-w-0 flex-1 basis-48">
              <div className="truncate text-sm font-medium text-slate-900">{invitation.email}</div>
              <div className="text-[13px] text-slate-500">
                Invited <Time value={invitation.created_at} /> · expires <Time value={invitation.expires_at} />
              </div>
            </div>
            <Badge>{ROLE_LABELS[invitation.role]}</Badge>
            {canManage && (
              <Button size="sm" variant="secondary" aria-label={`Revoke invitation for ${invitation.email}`} onClick={() => onRevoke(invitation)}>
                Revoke
              </Button>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
