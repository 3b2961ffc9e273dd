"use client";

import { Badge, Button, Switch, useToast, type BadgeTone } from "@/components/ui";
import { useApplyAgent, type AgentStatus, type BusinessAgent } from "@/lib/client/agents";

const TONES: Record<AgentStatus, BadgeTone> = { DRAFT: "neutral", PROVISIONING: "info", ACTIVE: "success", DISABLED: "neutral", ERROR: "danger" };

function AgentStatusBadge({ status }: { status: AgentStatus }) {
  return (
    <Badge tone={TONES[status]} dot>
      <span data-testid="agent-status">{status}</span>
    </Badge>
  );
}

/**
 * Enable / disable the channel's agent (POST /business-agents with `enabled`): a first enable creates
 * it (PROVISIONING until the provider answers; the list polls meanwhile).
 */
export function AgentSwitch({
  projectId,
  channelId,
  agent,
  eligible,
  canWrite,
}: {
  projectId: string;
  channelId: string;
  agent: BusinessAgent | undefined;
  eligible: boolean;
  canWrite: boolean;
}) {
  const apply = useApplyAgent(projectId);
  const toast = useToast();
  const set = (enabled: boolean) =>
    apply.mutate(
      { channel_id: channelId, enabled },
      {
        onSuccess: () => toast.show({ title: enabled ? "Agent enabled" : "Agent disabled", tone: "success" }),
        onError: (error) => toast.show({ title: error.message, tone: "danger" }),
      },
    );

  if (!agent) {
    return (
      <Button variant="primary" disabled={!canWrite || !eligible} loading={apply.isPending} onClick={() => set(true)}>
        Enable agent
      </Button>
    );
  }
  const on = agent.status !== "DISABLED";
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Switch label="Agent enabled" checked={on} onCheckedChange={set} loading={apply.isPending} disabled={!canWrite} />
        <AgentStatusBadge status={agent.status} />
        {agent.status === "ERROR" && canWrite && (
          <Button size="sm" loading={apply.isPending} onClick={() => set(true)}>
            Retry
          </Button>
        )}
      </div>
      {agent.error_message && (
        <p role="alert" className="text-sm text-red-700">
          {agent.error_message}
        </p>
      )}
    </div>
  );
}
