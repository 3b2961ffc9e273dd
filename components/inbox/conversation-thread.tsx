"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { ErrorState } from "@/components/ui/error-state";
import { ChevronRightIcon, InfoIcon } from "@/components/ui/icons";
import { Skeleton, SkeletonGroup } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/client/api";
import type { Channel } from "@/lib/client/channels";
import { useConversation, useConversationMessages, useSendMessage, type ComposedContent, type Message } from "@/lib/client/inbox";
import { Composer } from "./composer";
import { ContactAvatar } from "./contact-avatar";
import { ContactPanel } from "./contact-panel";
import { PlatformName } from "@/components/ui/platform-name";
import { channelLabel, contactLabel } from "./format";
import { HandoffToggle } from "./handoff-toggle";
import { markSeen } from "./last-seen";
import { MessageLog } from "./message-log";
import { newIdempotencyKey, type PendingSend } from "./pending-send";
import { ThreadOwnerControl } from "./thread-owner-control";
import { useNow } from "./use-now";
import { WindowBanner } from "./window-banner";

export interface ConversationThreadProps {
  projectId: string;
  conversationId: string;
  /** The list view's URL (phones show list and thread one at a time). */
  listHref: string;
  channels: Channel[] | undefined;
  /** Developer and up may reply and toggle handoff; viewers read only. null while the role loads. */
  canWrite: boolean | null;
  /** Owners and admins may erase the contact's personal data (contacts:erase). */
  canErase?: boolean;
}

export function ConversationThread({ projectId, conversationId, listHref, channels, canWrite, canErase = false }: ConversationThreadProps) {
  const conversationQuery = useConversation(projectId, conversationId);
  const conversation = conversationQuery.data;
  const thread = useConversationMessages(projectId, conversation);
  const send = useSendMessage(projectId);
  const now = useNow(30_000);
  const [pending, setPending] = useState<PendingSend[]>([]);
  const messages = thread.messages;

  useSeenWhileOpen(projectId, conversationId, messages);

  // An accepted send turns into the real message as soon as the poll brings it. The poll can bring it
  // before POST /messages has answered, so this runs when either side changes.
  useEffect(() => {
    const ids = new Set(messages.map((message) => message.id));
    setPending((current) =>
      current.some((item) => item.messageId && ids.has(item.messageId)) ? current.filter((item) => !item.messageId || !ids.has(item.messageId)) : current,
    );
  }, [messages, pending]);

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
  // Never draw a send twice: one the poll already brought is shown as the real message only.
  const listedIds = new Set(messages.map((message) => message.id));
  const shownPending = pending.filter((item) => !item.messageId || !listedIds.has(item.messageId));

  const run = (item: PendingSend) => {
    send.mutateAsync({ request: item.request, idempotencyKey: item.key }).then(
      (response) => setPending((current) => current.map((p) => (p.key === item.key ? { ...p, state: "accepted", messageId: response.id, error: null } : p))),
      (error: unknown) => setPending((current) => current.map((p) => (p.key === item.key ? { ...p, state: "failed", error } : p))),
    );
  };

  const onSend = (content: ComposedContent) => {
    if (!conversation.last_channel_id) return;
    const item: PendingSend = {
      key: newIdempotencyKey(),
      request: { channel_id: conversation.last_channel_id, conversation_id: conversation.id, ...content },
      state: "sending",
      error: null,
      messageId: null,
      createdAt: Date.now(),
    };
    setPending((current) => [...current, item]);
    run(item);
  };

  const retry = (key: string) => {
    const item = pending.find((p) => p.key === key);
    if (!item) return;
    setPending((current) => current.map((p) => (p.key === key ? { ...p, state: "sending", error: null } : p)));
    run(item);
  };

  return (
    <section aria-label={`Conversation with ${label}`} className="flex h-full min-h-0 flex-col">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 bg-white px-3 py-2.5 sm:px-4">
        <BackLink href={listHref} />
        <ContactAvatar label={label} />
        <div className="min-w-0 flex-1 basis-40">
          <h2 className="truncate text-sm font-semibold text-slate-900">{label}</h2>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-slate-500">
            {conversation.phone && conversation.phone !== label && <span className="font-mono">{conversation.phone}</span>}
            {channel && (
              <span>
                via {channelLabel(channel)} · <PlatformName code={channel.platform} />
              </span>
            )}
          </p>
        </div>
        {canWrite !== null && <ThreadOwnerControl projectId={projectId} conversation={conversation} canWrite={canWrite} />}
        {canWrite !== null && <HandoffToggle projectId={projectId} conversation={conversation} channel={channel} canWrite={canWrite} />}
        <ContactPanel projectId={projectId} contactId={conversation.contact_id} listHref={listHref} canErase={canErase} />
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
      ) : messages.length === 0 && shownPending.length === 0 ? (
        <div className="flex flex-1 items-center justify-center bg-slate-50 p-6 text-center text-sm text-slate-500">No messages in this conversation yet.</div>
      ) : (
        <MessageLog
          label={`Messages with ${label}`}
          messages={messages}
          pending={shownPending}
          hasOlder={thread.hasNextPage}
          loadingOlder={thread.isFetchingNextPage}
          onLoadOlder={() => void thread.fetchNextPage()}
          onRetry={retry}
          onDiscard={(key) => setPending((current) => current.filter((p) => p.key !== key))}
        />
      )}

      <div className="space-y-2 border-t border-slate-200 bg-white px-3 py-3 sm:px-4">
        {canWrite === false ? (
          <p className="flex items-start gap-2 rounded-md bg-slate-100 px-3 py-2 text-xs leading-5 text-slate-600">
            <InfoIcon size={14} className="mt-0.5 shrink-0" />
            You have view-only access (Viewer role): you can read every conversation, but replying and human handoff need the Developer role or higher. Ask an
            admin of your organization to change your role.
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
              <Composer onSend={onSend} disabled={!thread.data || !replyWindow.open} />
            )}
          </>
        )}
      </div>
    </section>
  );
}

/**
 * Opening a thread marks it read in this browser; while it stays open (and the tab is visible) new
 * customer messages are read as they arrive.
 */
function useSeenWhileOpen(projectId: string, conversationId: string, messages: Message[]) {
  const newestInbound = [...messages].reverse().find((message) => message.direction === "inbound")?.timestamp;
  useEffect(() => {
    const mark = () => {
      if (document.visibilityState !== "visible") return;
      markSeen(projectId, conversationId, Math.max(Date.now(), newestInbound ? Date.parse(newestInbound) : 0));
    };
    mark();
    document.addEventListener("visibilitychange", mark);
    return () => document.removeEventListener("visibilitychange", mark);
  }, [projectId, conversationId, newestInbound]);
}

function BackLink({ href }: { href: string }) {
  return (
    <Link
      href={href}
      title="All conversations"
      className="-ml-1.5 inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden"
    >
      <ChevronRightIcon size={18} className="rotate-180" />
      <span className="sr-only">Conversations</span>
    </Link>
  );
}

function ThreadSkeleton() {
  return (
    <SkeletonGroup label="Loading conversation" className="flex h-full flex-col">
      <div className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
        <Skeleton className="size-9 rounded-full!" />
        <div className="space-y-1.5">
          <Skeleton className="h-3.5 w-40" />
          <Skeleton className="h-3 w-28" />
        </div>
      </div>
      <MessagesSkeleton />
    </SkeletonGroup>
  );
}

function MessagesSkeleton() {
  return (
    <div aria-hidden="true" className="flex-1 space-y-4 bg-slate-50 px-5 py-5">
      {["w-48", "ml-auto w-64", "w-40", "ml-auto w-56", "w-52"].map((width, index) => (
        <Skeleton key={index} className={`h-10 rounded-2xl! ${width}`} />
      ))}
    </div>
  );
}
