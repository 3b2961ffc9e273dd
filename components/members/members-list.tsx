"use client";

import { Badge, Button, Select, Spinner, Time } from "@/components/ui";
import { can, type Role } from "@/lib/client/me";
import type { Member } from "@/lib/client/members";
import { ROLE_LABELS, assignableRoles } from "./roles";

export function memberLabel(member: Member): string {
  return member.name?.trim() || member.email;
}

export interface MembersListProps {
  members: Member[];
  myUserId: string | undefined;
  myRole: Role | null;
  /** The member whose role change is being saved. */
  savingId: string | null;
  onChangeRole: (member: Member, role: Role) => void;
  onRemove: (member: Member) => void;
}

/** One row per member that wraps on phones (a role picker and a button do not fit a table there). */
export function MembersList({ members, myUserId, myRole, savingId, onChangeRole, onRemove }: MembersListProps) {
  const canManage = can(myRole, "members");
  // Only owners touch owners: for everyone else an owner's row is read-only.
  const mayManage = (member: Member) => canManage && (member.role !== "owner" || can(myRole, "owners"));
  const options = assignableRoles(myRole);

  return (
    <ul aria-label="Members" className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200">
      {members.map((member) => {
        const isMe = member.user_id === myUserId;
        const editable = mayManage(member);
        return (
          <li key={member.id} data-member-email={member.email} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5">
            <div className="min-w-0 flex-1 basis-56">
              <div className="flex items-center gap-2">
                <span className="truncate text-sm font-medium text-slate-900">{memberLabel(member)}</span>
                {isMe && <Badge tone="accent">You</Badge>}
              </div>
              <div className="truncate text-[13px] text-slate-500">
                {member.name ? `${member.email} · ` : ""}joined <Time value={member.created_at} format="absolute" />
              </div>
            </div>
            <div className="flex items-center gap-2">
              {savingId === member.id && <Spinner label="Saving role" />}
              {editable ? (
                <Select
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  disabled={savingId === member.id}
                  onChange={(event) => onChangeRole(member, event.target.value as Role)}
                  className="w-36"
                >
                  {options.map((role) => (
                    <option key={role} value={role}>
                      {ROLE_LABELS[role]}
                    </option>
                  ))}
                </Select>
              ) : (
                <Badge tone={member.role === "owner" ? "accent" : "neutral"}>{ROLE_LABELS[member.role]}</Badge>
              )}
              {editable && (
                <Button size="sm" variant="secondary" aria-label={isMe ? "Leave the organization" : `Remove ${member.email}`} onClick={() => onRemove(member)}>
                  {isMe ? "Leave" : "Remove"}
                </Button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
