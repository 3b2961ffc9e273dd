"use client";

import { useState } from "react";
import { Button, Card, ConfirmDialog, EmptyState, ErrorState, PageHeader, PlusIcon, SkeletonGroup, SkeletonRows, useToast } from "@/components/ui";
import { ReplyStepIcon } from "@/components/ui/icons";
import { can, useCurrentProject } from "@/lib/client/me";
import { useDeleteSavedReply, useSavedReplies, type SavedReply } from "@/lib/client/saved-replies";
import { SavedReplyDialog } from "./saved-reply-dialog";

/**
 * The project's saved replies: what the inbox composer offers after "/". Anyone can read them;
 * creating, editing and deleting need the project write role (projects:write).
 */
export function SavedRepliesPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const replies = useSavedReplies(projectId);
  const remove = useDeleteSavedReply(projectId);
  const toast = useToast();
  const [editing, setEditing] = useState<SavedReply | "new" | null>(null);
  const [deleting, setDeleting] = useState<SavedReply | null>(null);

  const createButton = canWrite && (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setEditing("new")}>
      New saved reply
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Saved replies"
        description="Answers your team sends often. In the inbox, type / at the start of a reply to pick one; {{contact.name}}, {{contact.phone}} and {{member.name}} are filled in for the conversation."
        back={{ href: `/projects/${encodeURIComponent(projectId)}/inbox`, label: "Inbox" }}
        actions={createButton}
      />
      {replies.error ? (
        <ErrorState error={replies.error} title="Couldn't load the saved replies" onRetry={() => void replies.refetch()} retrying={replies.isFetching} />
      ) : replies.isPending ? (
        <SkeletonGroup label="Loading saved replies">
          <SkeletonRows rows={4} columns={3} />
        </SkeletonGroup>
      ) : replies.data.length === 0 ? (
        <EmptyState
          icon={<ReplyStepIcon />}
          title="No saved replies yet"
          description="Save an answer once, then send it from any conversation by typing / and its shortcut."
          action={createButton || undefined}
        />
      ) : (
        <Card>
          <ul aria-label="Saved replies" className="divide-y divide-slate-100">
            {replies.data.map((reply) => (
              <li key={reply.id} className="flex flex-wrap items-start gap-3 px-4 py-3 sm:flex-nowrap">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-baseline gap-2">
                    <span className="font-mono text-xs text-indigo-700">/{reply.shortcut}</span>
                    <span className="text-sm font-medium text-slate-900">{reply.title}</span>
                  </p>
                  <p className="mt-1 line-clamp-2 text-sm whitespace-pre-wrap text-slate-600">{reply.body}</p>
                </div>
                {canWrite && (
                  <div className="flex shrink-0 gap-2">
                    <Button size="sm" onClick={() => setEditing(reply)} aria-label={`Edit /${reply.shortcut}`}>
                      Edit
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setDeleting(reply)} aria-label={`Delete /${reply.shortcut}`}>
                      Delete
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </Card>
      )}
      {editing && <SavedReplyDialog projectId={projectId} reply={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete /${deleting?.shortcut ?? ""}?`}
        description="Teammates can no longer pick it in the inbox. Messages already sent with it are not changed."
        confirmLabel="Delete saved reply"
        onConfirm={() =>
          deleting ? remove.mutateAsync(deleting.id).then(() => toast.show({ tone: "success", title: `Deleted /${deleting.shortcut}` })) : undefined
        }
      />
    </>
  );
}
