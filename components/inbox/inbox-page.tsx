"use client";

import { useState } from "react";
import { ButtonLink } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { InboxIcon, PhoneIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { useChannels } from "@/lib/client/inbox";
import { useInboxLive } from "@/lib/client/inbox-live";
import { useConversationCounts } from "@/lib/client/inbox-team";
import { can, useCurrentProject } from "@/lib/client/me";
import { useAssignToMe } from "./assignment-control";
import { ConversationList } from "./conversation-list";
import { ConversationThread } from "./conversation-thread";
import { InboxFilters } from "./inbox-filters";
import { LiveIndicator } from "./live-indicator";
import { useInboxList } from "./use-inbox-list";
import { useInboxLocation } from "./use-inbox-location";
import { useInboxShortcuts } from "./use-inbox-shortcuts";

/**
 * The team inbox: views and filters over the conversations on the left, the open one on the right with
 * the contact beside it. Everything that picks what is shown lives in the URL (views, filters, search,
 * ?c=conv_… for the open conversation), so it can be shared and the back button works; phones show
 * one pane at a time. useInboxLive is the one way live updates reach the page.
 */
export function InboxPage({ projectId }: { projectId: string }) {
  const { location, hrefFor, go, replace } = useInboxLocation();
  // A conversation whose contact was just erased is gone: it is not drawn while the URL catches up.
  const [erasedId, setErasedId] = useState<string | null>(null);
  const selectedId = location.conversation === erasedId ? null : location.conversation;
  const { role, isLoading } = useCurrentProject();
  const channels = useChannels(projectId);
  const counts = useConversationCounts(projectId, location);
  const list = useInboxList(projectId, location);
  const live = useInboxLive(projectId);
  const canWrite = isLoading ? null : can(role, "write");
  const canErase = !isLoading && can(role, "erase");
  const { assignToMe } = useAssignToMe(projectId);
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const savedRepliesHref = `${base}/saved-replies`;

  const step = (by: 1 | -1) => {
    const ids = list.conversations.map((conversation) => conversation.id);
    if (ids.length === 0) return;
    const at = selectedId ? ids.indexOf(selectedId) : -1;
    const next = at === -1 ? (by === 1 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, at + by));
    if (ids[next] !== selectedId) go({ conversation: ids[next]! });
  };
  useInboxShortcuts({
    next: () => step(1),
    previous: () => step(-1),
    assignToMe: () => {
      if (selectedId && canWrite) assignToMe(selectedId);
    },
  });

  return (
    <>
      <PageHeader
        className={cn(selectedId && "max-md:hidden")}
        title="Inbox"
        description="Every conversation with your customers. Assign one, reply inside the 24-hour window, leave private notes for your team, or take a conversation over from your automation."
        meta={<LiveIndicator status={live.mode} />}
        actions={
          <>
            <ButtonLink href={savedRepliesHref}>Saved replies</ButtonLink>
            <ButtonLink href={`${base}/sandbox`} icon={<PhoneIcon />}>
              Sandbox phone
            </ButtonLink>
          </>
        }
      />
      <div className="flex h-[calc(100dvh-12.5rem)] min-h-[32rem] overflow-hidden rounded-lg bg-white shadow-xs ring-1 ring-slate-200 max-md:h-[calc(100dvh-6.5rem)] lg:h-[calc(100dvh-13rem)]">
        <div className={cn("flex min-h-0 w-full flex-col border-slate-200 md:w-80 md:shrink-0 md:border-r", selectedId && "max-md:hidden")}>
          <InboxFilters
            location={location}
            counts={counts.data}
            channels={channels.data}
            hrefFor={hrefFor}
            onChange={(patch, options) => (options?.replace ? replace(patch) : go(patch))}
          />
          <ConversationList
            projectId={projectId}
            list={list}
            filters={location}
            selectedId={selectedId}
            hrefFor={(id) => hrefFor({ conversation: id })}
            channels={channels.data}
            sandboxHref={`${base}/sandbox`}
          />
        </div>
        <div className={cn("min-h-0 min-w-0 flex-1", !selectedId && "max-md:hidden")}>
          {selectedId ? (
            <ConversationThread
              key={selectedId}
              projectId={projectId}
              conversationId={selectedId}
              listHref={hrefFor({ conversation: null })}
              channels={channels.data}
              canWrite={canWrite}
              canErase={canErase}
              savedRepliesHref={savedRepliesHref}
              onErased={() => setErasedId(selectedId)}
            />
          ) : (
            <div className="flex h-full flex-col items-center justify-center bg-slate-50 px-6 text-center">
              <span className="mb-3 flex size-10 items-center justify-center rounded-lg bg-white text-slate-500 ring-1 ring-slate-200">
                <InboxIcon size={20} />
              </span>
              <p className="text-sm font-medium text-slate-900">Select a conversation</p>
              <p className="mt-1 max-w-xs text-sm text-slate-500">
                Pick one on the left to read it and reply. New messages appear on their own, no reload needed. Keys: j / k next and previous, a assign to me.
              </p>
            </div>
          )}
        </div>
      </div>
    </>
  );
}
