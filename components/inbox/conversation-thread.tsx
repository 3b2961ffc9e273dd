"use client";

import { useEffect, useMemo } from "react";
import { ErrorState } from "@/components/ui/error-state";
import { InfoIcon } from "@/components/ui/icons";
import { PlatformName } from "@/components/ui/platform-name";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/client/api";
import type { Channel } from "@/lib/client/channels";
import { useConversation, useConversationMessages, type Message } from "@/lib/client/inbox";
import { useConversationNotes, useMarkRead } from "@/lib/client/inbox-team";
import { AssignmentControl } from "./assignment-control";
import { Composer } from "./composer";
import { ContactAvatar } from "./contact-avatar";
import { ContactPanel, ContactPanelToggle, useContactPanelOpen } from "./contact-panel";
import { channelLabel, contactLabel } from "./format";
import { HandoffToggle } from "./handoff-toggle";
import { MessageLog } from "./message-log";
import { BackLink, MessagesSkeleton, ThreadSkeleton } from "./thread-parts";
import { ThreadOwnerControl } from "./thread-owner-control";
import { threadTimeline } from "./timeline";
import { useNow } from "./use-now";
import { usePendingSends } from "./use-pending-sends";
import { WindowBanner } from "./window-banner";

export interface ConversationThreadProps {
  projectId: string;
  conversationId: string;
  /** The list view's URL (phones show list and thread one at a time). */
  listHref: string;
  channels: Channel[] | undefined;
  /** Developer and up may reply, assign and toggle handoff; viewers read only. null while the role loads. */
  canWrite: boolean | null;
  /** Owners and admins may erase the contact's personal data (contacts:erase). */
  canErase?: boolean;
  /** The saved replies settings page (the composer's picker links to it). */
  savedRepliesHref: string;
  /** The contact was erased: the page drops this thread at once. */
  onErased: () => void;
}

export function ConversationThread({
  projectId,
  conversationId,
  listHref,
  channels,
  canWrite,
  canErase = false,
  savedRepliesHref,
  onErased,
}: ConversationThreadProps) {
  const conversationQuery = useConversation(projectId, conversationId);
  const conversation = conversationQuery.data;
  const thread = useConversationMessages(projectId, conversation);
  const notes = useConversationNotes(projectId, conversationId);
  const now = useNow(30_000);
  const messages = thread.messages;
  const sends = usePendingSends(projectId, conversation, messages);
  const [panelOpen, setPanelOpen] = useContactPanelOpen();
  const items = useMemo(() => threadTimeline(messages, notes.data ?? [], !thread.hasNextPage), [messages, notes.data, thread.hasNextPage]);

  useReadWhileOpen(projectId, conversationId, messages);

  if (conversationQuery.error) {
    const missing = isApiError(conversationQuery.error) && conversationQuery.error.status === 404;
    return (
      <div className="flex h-full flex-col">
        <BackLink href={listHref} />
        <ErrorState
          compact
          className="m-auto"
          error={conversationQuery.error}
          title={missing ? "This conversation isn't in this project" : undefined}
          onRetry={missing ? undefined : () => void conversationQuery.refetch()}
          retrying={conversationQuery.isFetching}
        />
      </div>
    );
  }
  if (!conversation) return <ThreadSkeleton />;

  const channel = channels?.find((item) => item.id === conversation.last_channel_id) ?? null;
  const replyWindow = conversation.messaging_window;
  const label = contactLabel(conversation);

  return (
    <div className="relative flex h-full min-h-0">
      <section aria-label={`Conversation with ${label}`} className="flex h-full min-h-0 min-w-0 flex-1 flex-col">
        <header className="space-y-2 border-b border-slate-200 bg-white px-3 py-2.5 sm:px-4">
          <div className="flex items-center gap-3">
            <BackLink href={listHref} />
            <ContactAvatar label={label} />
            <div className="min-w-0 flex-1">
              <h2 className="truncate text-sm font-semibold text-slate-900">{label}</h2>
              <p className="truncate text-xs text-slate-500">
                {conversation.phone && conversation.phone !== label && <span className="font-mono">{conversation.phone}</span>}
                {conversation.phone && conversation.phone !== label && channel && " · "}
                {channel && (
                  <>
                    via {channelLabel(channel)} · <PlatformName code={channel.platform} showCode={false} />
                  </>
                )}
              </p>
            </div>
            <ContactPanelToggle open={panelOpen} onToggle={() => setPanelOpen(!panelOpen)} />
          </div>
          {canWrite !== null && (
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <AssignmentControl projectId={projectId} conversation={conversation} canWrite={canWrite} />
              <ThreadOwnerControl projectId={projectId} conversation={conversation} canWrite={canWrite} />
              <HandoffToggle projectId={projectId} conversation={conversation} channel={channel} canWrite={canWrite} />
            </div>
          )}
        </header>

        {thread.error && !thread.data ? (
          <ErrorState
            compact
            className="m-auto"
            error={thread.error}
            title="Couldn't load the messages"
            onRetry={() => void thread.refetch()}
            retrying={thread.isFetching}
          />
        ) : thread.isPending ? (
          <MessagesSkeleton />
        ) : items.length === 0 && sends.pending.length === 0 ? (
          <div className="flex flex-1 items-center justify-center bg-slate-50 p-6 text-center text-sm text-slate-500">
            No messages in this conversation yet.
          </div>
        ) : (
          <MessageLog
            label={`Messages with ${label}`}
            items={items}
            pending={sends.pending}
            hasOlder={thread.hasNextPage}
            loadingOlder={thread.isFetchingNextPage}
            onLoadOlder={() => void thread.fetchNextPage()}
            onRetry={sends.retry}
            onDiscard={sends.discard}
          />
        )}

        <div className="space-y-2 border-t border-slate-200 bg-white px-3 py-3 sm:px-4">
          {canWrite === false ? (
            <p className="flex items-start gap-2 rounded-md bg-slate-100 px-3 py-2 text-xs leading-5 text-slate-600">
              <InfoIcon size={14} className="mt-0.5 shrink-0" />
              You have view-only access (Viewer role): you can read every conversation and note, but replying, notes, assignment and human handoff need the
              Developer role or higher. Ask an admin of your organization to change your role.
            </p>
          ) : canWrite === null ? (
            <Skeleton className="h-16 w-full" />
          ) : (
            <>
              <WindowBanner replyWindow={replyWindow} now={now} platform={channel?.platform ?? null} />
              {!conversation.last_channel_id ? (
                <p className="text-xs text-slate-500">This conversation has no channel to reply on.</p>
              ) : channel?.status === "disconnected" ? (
                <p className="text-xs text-slate-500">
                  {channelLabel(channel)} is disconnected, so replies can&apos;t be sent through it. Connect the number again on the Channels page to reply.
                </p>
              ) : (
                <Composer
                  projectId={projectId}
                  conversationId={conversation.id}
                  channelId={conversation.last_channel_id}
                  platform={channel?.platform ?? null}
                  windowOpen={replyWindow.open}
                  ready={Boolean(thread.data)}
                  onSend={sends.onSend}
                  manageRepliesHref={savedRepliesHref}
                />
              )}
            </>
          )}
        </div>
      </section>
      {panelOpen && (
        <ContactPanel
          projectId={projectId}
          contactId={conversation.contact_id}
          conversationId={conversation.id}
          listHref={listHref}
          canErase={canErase}
          onClose={() => setPanelOpen(false)}
          onErased={onErased}
        />
      )}
    </div>
  );
}

/**
 * Opening a thread marks it read for the signed-in member (POST …/read); while it stays open and the
 * tab is visible, each new customer message is read as it arrives.
 */
function useReadWhileOpen(projectId: string, conversationId: string, messages: Message[]) {
  const { mutate } = useMarkRead(projectId);
  const newestInbound = [...messages].reverse().find((message) => message.direction === "inbound")?.id ?? "";
  useEffect(() => {
    const mark = () => {
      if (document.visibilityState === "visible") mutate(conversationId);
    };
    mark();
    document.addEventListener("visibilitychange", mark);
    return () => document.removeEventListener("visibilitychange", mark);
  }, [mutate, conversationId, newestInbound]);
}
