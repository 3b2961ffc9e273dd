"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Time } from "@/components/ui/time";
import type { Channel } from "@/lib/client/channels";
import { useLastMessage, type Conversation } from "@/lib/client/inbox";
import { platformLabel, platformName } from "@/lib/shared/platforms";
import { ContactAvatar } from "./contact-avatar";
import { contactLabel, previewOf } from "./format";
import { threadOwnerBadge } from "./thread-owner";
import { useWhoAnswers } from "./use-who-answers";

export interface ConversationRowProps {
  projectId: string;
  conversation: Conversation;
  channel: Channel | undefined;
  href: string;
  selected: boolean;
}

export function ConversationRow({ projectId, conversation, channel, href, selected }: ConversationRowProps) {
  const last = useLastMessage(projectId, conversation);
  const lastMessage = last.data;
  const label = contactLabel(conversation);
  // Unread is the server's count for the signed-in member (customer messages since their last read);
  // the open conversation is being read, so it never shows as unread.
  const unreadCount = selected ? 0 : (conversation.unread_count ?? 0);
  const unread = unreadCount > 0;
  const assignee = conversation.assignee ?? null;
  const activity = lastMessage?.timestamp ?? conversation.last_message_at ?? conversation.started_at;
  const answering = useWhoAnswers(projectId, conversation, channel);
  const owner = threadOwnerBadge(conversation.thread_owner);

  return (
    <li>
      <Link
        href={href}
        scroll={false}
        aria-current={selected ? "page" : undefined}
        data-conversation-id={conversation.id}
        data-unread={unread ? "true" : "false"}
        className={cn(
          "flex gap-3 border-l-2 px-3 py-3 transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-600 sm:px-4",
          selected ? "border-indigo-600 bg-indigo-50/60" : "border-transparent hover:bg-slate-50",
        )}
      >
        <span className="relative">
          <ContactAvatar label={label} />
          {unread && <span aria-hidden="true" className="absolute -top-0.5 -right-0.5 size-3 rounded-full bg-indigo-600 ring-2 ring-white" />}
        </span>
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className={cn("truncate text-sm", unread ? "font-bold text-slate-900" : "font-medium text-slate-800")}>{label}</span>
            <span className="flex shrink-0 items-center gap-1.5">
              <Time value={activity} className={cn("text-[11px] tabular-nums", unread ? "font-medium text-indigo-700" : "text-slate-600")} />
              {unread && (
                <span
                  data-testid="unread-count"
                  aria-hidden="true"
                  className="min-w-5 rounded-full bg-indigo-600 px-1.5 text-center text-[11px] leading-5 font-semibold text-white tabular-nums"
                >
                  {unreadCount}
                </span>
              )}
            </span>
          </span>
          {conversation.name && conversation.phone && <span className="block truncate font-mono text-[11px] text-slate-600">{conversation.phone}</span>}
          <span className={cn("mt-0.5 block truncate text-[13px]", unread ? "text-slate-800" : "text-slate-600")}>
            {unread && <span className="sr-only">{unreadCount} unread. </span>}
            {last.isPending ? (
              <span className="inline-block h-3 w-32 animate-pulse rounded bg-slate-200/70 align-middle motion-reduce:animate-none" />
            ) : lastMessage ? (
              <>
                {lastMessage.direction === "outbound" && <span className="font-medium">You: </span>}
                {previewOf(lastMessage)}
              </>
            ) : (
              <span className="italic">No messages yet</span>
            )}
          </span>
          <span className="mt-1.5 flex flex-wrap gap-1">
            {channel && (
              <Badge tone="info">
                <span title={platformLabel(channel.platform)}>
                  {channel.is_sandbox ? `Sandbox · ${platformName(channel.platform)}` : platformName(channel.platform)}
                </span>
              </Badge>
            )}
            {answering && (
              <Badge tone={answering.tone}>
                <span title={answering.why} data-answerer={answering.answerer}>
                  {answering.label}
                </span>
              </Badge>
            )}
            {assignee && (
              <Badge tone="neutral">
                <span data-testid="row-assignee" title={`Assigned to ${assignee.name ?? assignee.email}`}>
                  {assignee.name ?? assignee.email}
                </span>
              </Badge>
            )}
            {owner && (
              <Badge tone={owner.tone}>
                <span title={`Thread owner: ${owner.owner}`}>{owner.label}</span>
              </Badge>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}
