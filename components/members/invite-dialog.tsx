"use client";

import { useState, type FormEvent } from "react";
import { Button, CheckCircleIcon, CopyButton, Dialog, Field, FormDialogActions, Input, Select } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import type { Role } from "@/lib/client/me";
import { useInviteMember, type CreatedInvitation } from "@/lib/client/members";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, assignableRoles } from "./roles";

/**
 * Invite by email, then show the link once. Mount it only while open: closing drops the link, which
 * the server keeps only as a hash.
 */
export function InviteDialog({
  projectId,
  myRole,
  organizationName,
  onClose,
}: {
  projectId: string;
  myRole: Role | null;
  organizationName: string;
  onClose: () => void;
}) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("developer");
  const [emailMissing, setEmailMissing] = useState(false);
  const [invitation, setInvitation] = useState<CreatedInvitation | null>(null);
  const invite = useInviteMember(projectId);

  const serverError = isApiError(invite.error) ? invite.error : null;
  const emailError = emailMissing
    ? "Enter the email address to invite."
    : (serverError?.fieldError("email") ?? (invite.error && !serverError?.fieldError("role") ? invite.error.message : undefined));
  const roleError = serverError?.fieldError("role");

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = email.trim();
    setEmailMissing(trimmed === "");
    if (!trimmed) return;
    invite.mutate(
      { email: trimmed, role },
      {
        onSuccess: (created) => {
          invite.reset();
          setInvitation(created);
        },
      },
    );
  };

  if (invitation) {
    return (
      <Dialog
        key="link"
        open
        onClose={onClose}
        title="Invitation created"
        description={`${invitation.email} is invited as ${ROLE_LABELS[invitation.role].toLowerCase()}.`}
        footer={
          <Button variant="primary" onClick={onClose} data-autofocus>
            Done
          </Button>
        }
      >
        <div className="space-y-3">
          <p className="flex items-start gap-2 text-sm text-slate-700">
            <CheckCircleIcon className="mt-0.5 shrink-0 text-emerald-600" />
            <span>
              Send this link to <strong className="font-medium text-slate-900">{invitation.email}</strong>; it works once and expires in 7 days. You won&apos;t
              see it again after closing this.
            </span>
          </p>
          <div className="flex items-center gap-2 rounded-md bg-slate-50 py-1 pr-1 pl-3 ring-1 ring-slate-200 ring-inset">
            <code data-testid="invitation-url" className="min-w-0 flex-1 py-1 font-mono text-[12px] break-all text-slate-900 select-all">
              {invitation.url}
            </code>
            <CopyButton value={invitation.url} label="invitation link" display="text" variant="secondary" />
          </div>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      key="form"
      open
      onClose={onClose}
      title="Invite a member"
      description={`They'll be able to open every project of ${organizationName}.`}
      dismissible={!invite.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={invite.isPending} submitLabel="Create invitation" />}
    >
      <div className="space-y-4">
        <Field label="Email" error={emailError}>
          <Input
            type="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailMissing(false);
              if (invite.isError) invite.reset();
            }}
            placeholder="teammate@example.com"
            autoComplete="off"
            data-autofocus
          />
        </Field>
        <Field label="Role" hint={ROLE_DESCRIPTIONS[role]} error={roleError}>
          <Select value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {assignableRoles(myRole).map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
    </Dialog>
  );
}
