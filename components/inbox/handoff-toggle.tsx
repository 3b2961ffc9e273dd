"use client";

import { Badge } from "@/components/ui/badge";
import { Switch } from "@/components/ui/switch";
import { useToast } from "@/components/ui/toast";
import { useSetHandoff, type Conversation } from "@/lib/client/inbox";
import type { Channel } from "@/lib/client/channels";
import { HintButton } from "./hint-button";
import { useWhoAnswers } from "./use-who-answers";

/** Human handoff for one conversation; viewers see the state only. */
export function HandoffToggle({
  projectId,
  conversation,
  channel,
  canWrite,
}: {
  projectId: string;
  conversation: Conversation;
  channel: Channel | null;
  canWrite: boolean;
}) {
  const toast = useToast();
  const setHandoff = useSetHandoff(projectId);
  const human = conversation.handoff.status === "HUMAN_ACTIVE";
  // The badge says who answers (agent, automation, webhook, a person, nobody), not merely the wire's handoff status.
  const answering = useWhoAnswers(projectId, conversation, channel);

  const toggle = (enabled: boolean) =>
    setHandoff.mutate(
      { conversationId: conversation.id, enabled, ...(enabled ? { reason: "Taken over from the dashboard inbox" } : {}) },
      {
        onSuccess: (updated) =>
          toast.show({
            tone: "success",
            title: updated.handoff.status === "HUMAN_ACTIVE" ? "Human handoff on" : "Human handoff off",
          }),
        onError: (error) => toast.show({ tone: "danger", title: "Couldn't change the handoff", description: error.message }),
      },
    );

  return (
    <div className="flex items-center gap-2">
      {answering && (
        <Badge tone={answering.tone} dot>
          <span data-testid="handoff-status" data-answerer={answering.answerer} data-handoff={conversation.handoff.status} title={answering.why}>
            {answering.label}
          </span>
        </Badge>
      )}
      {canWrite && (
        <label className="flex items-center gap-2 text-[13px] font-medium whitespace-nowrap text-slate-700 max-sm:ml-auto">
          <span>Human handoff</span>
          <Switch checked={human} onCheckedChange={toggle} loading={setHandoff.isPending} aria-label="Human handoff" />
        </label>
      )}
      <HintButton label="What does human handoff do?">
        <strong className="block text-slate-900">Human handoff</strong>
        While it is on (<span className="font-mono">HUMAN_ACTIVE</span>), your webhook stops receiving <span className="font-mono">message.received</span> for
        this conversation and automated API replies get <span className="font-mono">409 ai_handoff_active</span>, so your bot stays quiet while a teammate
        answers here. Replies from this inbox still go out. Turn it off to hand the conversation back to automation (
        <span className="font-mono">AI_ACTIVE</span>).
        {conversation.handoff.reason && <span className="mt-1 block">Reason: {conversation.handoff.reason}</span>}
      </HintButton>
    </div>
  );
}
