"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import type { Conversation } from "@/lib/client/inbox";
import { useChannelAgent, usePassThread } from "@/lib/client/threads";
import { HintButton } from "./hint-button";
import { threadActions, threadOwnerBadge } from "./thread-owner";

/**
 * The thread's owner (projects that route AGENT only: thread_owner is null elsewhere) with Take over
 * and Give back to agent. Both are passes (POST /business-agents/thread-control); the handoff
 * follows the owner on the server, and the conversation refetches after a click.
 */
export function ThreadOwnerControl({ projectId, conversation, canWrite }: { projectId: string; conversation: Conversation; canWrite: boolean }) {
  const toast = useToast();
  const badge = threadOwnerBadge(conversation.thread_owner);
  const agent = useChannelAgent(projectId, conversation.last_channel_id, Boolean(badge) && canWrite);
  const pass = usePassThread(projectId);
  if (!badge) return null;
  const actions = threadActions({ owner: badge.owner, channelId: conversation.last_channel_id, agent: agent.data, canWrite });

  const move = (businessAgentId?: string) =>
    pass.mutate(
      {
        conversationId: conversation.id,
        channelId: conversation.last_channel_id!,
        contactId: conversation.contact_id,
        ...(businessAgentId ? { businessAgentId } : { reason: "Taken over from the dashboard inbox" }),
      },
      {
        onSuccess: () => toast.show({ tone: "success", title: businessAgentId ? "Given back to the agent" : "You have the thread: reply from the inbox" }),
        onError: (error) => toast.show({ tone: "danger", title: "Couldn't move the thread", description: error.message }),
      },
    );

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="thread-owner-control">
      <Badge tone={badge.tone} dot>
        <span data-testid="thread-owner" title={badge.owner}>
          {badge.label}
        </span>
      </Badge>
      {actions.takeOver && (
        <Button size="sm" variant="secondary" loading={pass.isPending && !pass.variables?.businessAgentId} disabled={pass.isPending} onClick={() => move()}>
          Take over
        </Button>
      )}
      {actions.giveBackTo && (
        <Button
          size="sm"
          variant="secondary"
          loading={pass.isPending && Boolean(pass.variables?.businessAgentId)}
          disabled={pass.isPending}
          onClick={() => move(actions.giveBackTo!)}
        >
          Give back to agent
        </Button>
      )}
      <HintButton label="Who answers this customer?">
        <strong className="block text-slate-900">Thread owner</strong>
        Agent: the business agent answers. Your service: inbound follows your webhook and automations. Inbox: a person answers from here (human handoff is on).
        Take over passes the thread to the inbox; Give back hands it to the channel&apos;s active agent.
      </HintButton>
    </div>
  );
}
