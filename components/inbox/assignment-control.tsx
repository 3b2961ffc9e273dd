"use client";

import { useCallback, useState, type FormEvent } from "react";
import { Badge, Button, Checkbox, Dialog, Field, FormDialogActions, FormError, Select, Time, useToast } from "@/components/ui";
import type { Conversation } from "@/lib/client/inbox";
import { useAssignConversation } from "@/lib/client/inbox-team";
import { useMe } from "@/lib/client/me";
import { useMembers } from "@/lib/client/members";
import { HintButton } from "./hint-button";

const UNASSIGNED = "";

/** Assign to me: the header's button and the `a` shortcut. Handoff follows the server's default (on). */
export function useAssignToMe(projectId: string) {
  const assign = useAssignConversation(projectId);
  const me = useMe().data?.user;
  const toast = useToast();
  const run = useCallback(
    (conversationId: string) => {
      if (!me) return;
      assign.mutate(
        { conversationId, assigneeId: me.id },
        {
          onSuccess: () =>
            toast.show({ tone: "success", title: "Assigned to you", description: "Human handoff is on: automation stays quiet while you answer." }),
          onError: (error) => toast.show({ tone: "danger", title: "Couldn't assign the conversation", description: error.message }),
        },
      );
    },
    [assign, me, toast],
  );
  return { assignToMe: run, pending: assign.isPending, myId: me?.id ?? null };
}

/**
 * Who the conversation is assigned to, who assigned it and when, with Assign to me and a dialog to
 * assign to any member or unassign. Viewers see the assignment only.
 */
export function AssignmentControl({ projectId, conversation, canWrite }: { projectId: string; conversation: Conversation; canWrite: boolean }) {
  const [open, setOpen] = useState(false);
  const { assignToMe, pending, myId } = useAssignToMe(projectId);
  const assignee = conversation.assignee ?? null;
  const mine = Boolean(assignee && assignee.id === myId);
  const by = conversation.assigned_by ?? null;

  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="assignment">
      {assignee ? (
        <Badge tone={mine ? "accent" : "info"}>
          <span data-testid="assignee">Assigned to {mine ? "you" : (assignee.name ?? assignee.email)}</span>
        </Badge>
      ) : (
        <Badge tone="neutral">
          <span data-testid="assignee">Unassigned</span>
        </Badge>
      )}
      {assignee && (by || conversation.assigned_at) && (
        <span className="text-[11px] text-slate-500" data-testid="assigned-by">
          {by ? `by ${by.id === myId ? "you" : by.name}` : null}
          {conversation.assigned_at && (
            <>
              {by ? " · " : ""}
              <Time value={conversation.assigned_at} />
            </>
          )}
        </span>
      )}
      {canWrite && !mine && (
        <Button size="sm" variant="secondary" loading={pending} onClick={() => assignToMe(conversation.id)} title="Shortcut: a">
          Assign to me
        </Button>
      )}
      {canWrite && (
        <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
          {assignee ? "Reassign" : "Assign…"}
        </Button>
      )}
      <HintButton label="What does assigning do?">
        <strong className="block text-slate-900">Assignment</strong>
        The assignee answers this customer; teammates see who has it, and it leaves Unassigned. Assigning hands the thread to people: human handoff turns on, so
        your automation, agent and webhook stay quiet for this customer. To keep automation answering, use Assign… and untick “Hand the thread to people”.
        Unassigning leaves handoff as it is.
      </HintButton>
      {open && <AssignDialog projectId={projectId} conversation={conversation} myId={myId} onClose={() => setOpen(false)} />}
    </div>
  );
}

function AssignDialog({ projectId, conversation, myId, onClose }: { projectId: string; conversation: Conversation; myId: string | null; onClose: () => void }) {
  const members = useMembers(projectId);
  const assign = useAssignConversation(projectId);
  const toast = useToast();
  const [choice, setChoice] = useState<string>(conversation.assignee?.id ?? myId ?? UNASSIGNED);
  const [handoff, setHandoff] = useState(true);
  const unassigning = choice === UNASSIGNED;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    assign.mutate(
      { conversationId: conversation.id, assigneeId: unassigning ? null : choice, ...(unassigning ? {} : { handoff }) },
      {
        onSuccess: (updated) => {
          toast.show({ tone: "success", title: updated.assignee ? `Assigned to ${updated.assignee.name ?? updated.assignee.email}` : "Unassigned" });
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title="Assign conversation"
      description="The assignee answers this customer from the inbox; teammates see who has it."
      onSubmit={submit}
      dismissible={!assign.isPending}
      footer={<FormDialogActions onCancel={onClose} pending={assign.isPending} submitLabel={unassigning ? "Unassign" : "Assign"} />}
    >
      <div className="space-y-4">
        <Field label="Assign to">
          <Select value={choice} onChange={(event) => setChoice(event.target.value)} disabled={members.isPending}>
            <option value={UNASSIGNED}>Nobody (unassigned)</option>
            {(members.data ?? []).map((member) => (
              <option key={member.user_id} value={member.user_id}>
                {member.name ?? member.email}
                {member.user_id === myId ? " (you)" : ""}
              </option>
            ))}
          </Select>
        </Field>
        {unassigning ? (
          <p className="text-xs text-slate-600">Unassigning leaves human handoff as it is.</p>
        ) : (
          <Checkbox
            label="Hand the thread to people (human handoff on)"
            description="While handoff is on, your automation, agent and webhook stay quiet for this customer so the assignee answers alone. Untick to keep automation answering while the conversation is assigned."
            checked={handoff}
            onChange={(event) => setHandoff(event.target.checked)}
          />
        )}
        <FormError>{assign.error?.message ?? (members.error ? `Couldn't load the members: ${members.error.message}` : null)}</FormError>
      </div>
    </Dialog>
  );
}
