"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { ButtonLink } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { InboxIcon, PhoneIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { useChannels } from "@/lib/client/inbox";
import { can, useCurrentProject } from "@/lib/client/me";
import { ConversationList } from "./conversation-list";
import { ConversationThread } from "./conversation-thread";

/**
 * The inbox: conversations on the left, the open one on the right. The open conversation lives in the
 * URL (?c=conv_…) so it can be linked and the back button works; phones show one pane at a time.
 */
export function InboxPage({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const selectedId = searchParams.get("c");
  const { role, isLoading } = useCurrentProject();
  const channels = useChannels(projectId);
  const canWrite = isLoading ? null : can(role, "write");
  const canErase = !isLoading && can(role, "erase");
  const sandboxHref = `/projects/${encodeURIComponent(projectId)}/sandbox`;

  return (
    <>
      <PageHeader
        className={cn(selectedId && "max-md:hidden")}
        title="Inbox"
        description="Every conversation with your customers. Read the thread, reply inside the 24-hour window, or take a conversation over from your automation."
        actions={
          <ButtonLink href={sandboxHref} icon={<PhoneIcon />}>
            Sandbox phone
          </ButtonLink>
        }
      />
      <div className="flex h-[calc(100dvh-12.5rem)] min-h-[32rem] overflow-hidden rounded-lg bg-white shadow-xs ring-1 ring-slate-200 max-md:h-[calc(100dvh-6.5rem)] lg:h-[calc(100dvh-13rem)]">
        <div className={cn("flex min-h-0 w-full flex-col border-slate-200 md:w-80 md:shrink-0 md:border-r", selectedId && "max-md:hidden")}>
          <ConversationList
            projectId={projectId}
            selectedId={selectedId}
            hrefFor={(id) => `${pathname}?c=${encodeURIComponent(id)}`}
            channels={channels.data}
            sandboxHref={sandboxHref}
          />
        </div>
        <div className={cn("min-h-0 min-w-0 flex-1", !selectedId && "max-md:hidden")}>
          {selectedId ? (
            <ConversationThread
              key={selectedId}
              projectId={projectId}
              conversationId={selectedId}
              listHref={pathname}
              channels={channels.data}
              canWrite={canWrite}
              canErase={canErase}
            />
          ) : (
            <div className="flex h-full flex-col items-center justify-center bg-slate-50 px-6 text-center">
              <span className="mb-3 flex size-10 items-center justify-center rounded-lg bg-white text-slate-500 ring-1 ring-slate-200">
                <InboxIcon size={20} />
              </span>
              <p className="text-sm font-medium text-slate-900">Select a conversation</p>
              <p className="mt-1 max-w-xs text-sm text-slate-500">
                Pick one on the left to read it and reply. New messages appear on their own, no reload needed.
              </p>
            </div>
          )}
        </div>
      </div>
    </>
  );
}
