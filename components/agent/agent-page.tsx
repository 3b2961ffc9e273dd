"use client";

import { useState } from "react";
import { Card, CardBody, CardHeader, EmptyState, ErrorState, PageHeader, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { AgentIcon } from "@/components/ui/icons";
import { useAgentEligibility, useBusinessAgents } from "@/lib/client/agents";
import { useChannels } from "@/lib/client/channels";
import { can, useCurrentProject } from "@/lib/client/me";
import { AgentSwitch } from "./agent-status";
import { AgentWorkspace } from "./agent-workspace";
import { ChannelPicker } from "./channel-picker";
import { EligibilityNotes } from "./eligibility-notes";
import { RoutingNote } from "./routing-note";

/**
 * /projects/[id]/agent: the business agent of one channel (docs/spec/decisions.md "Business agents"):
 * its eligibility, on/off and status, then settings, skills, connectors and tools, a test console and
 * an eval runner.
 */
export function AgentPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const channels = useChannels(projectId);
  const agents = useBusinessAgents(projectId);
  const all = channels.data?.pages.flatMap((page) => page.data) ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  const channelId = picked ?? all.find((c) => c.is_sandbox)?.id ?? all[0]?.id ?? null;
  const eligibility = useAgentEligibility(projectId, channelId);
  const agent = agents.data?.data.find((a) => a.channel_id === channelId);

  let body;
  if (channels.isPending || agents.isPending)
    body = (
      <SkeletonGroup label="Loading the agent">
        <SkeletonRows rows={3} columns={2} />
      </SkeletonGroup>
    );
  else if (channels.isError) body = <ErrorState error={channels.error} title="Couldn't load channels" onRetry={() => void channels.refetch()} />;
  else if (agents.isError) body = <ErrorState error={agents.error} title="Couldn't load the agent" onRetry={() => void agents.refetch()} />;
  else if (!channelId)
    body = <EmptyState icon={<AgentIcon />} title="No channel yet" description="Connect a channel, or use the shared sandbox, to set up an agent." />;
  else
    body = (
      <div className="space-y-5">
        <Card>
          <CardHeader title="Channel" description="Where the agent answers customers." />
          <CardBody className="grid gap-4 sm:grid-cols-2">
            <ChannelPicker channels={all} value={channelId} onChange={setPicked} />
            <div className="space-y-3">
              {eligibility.data && <EligibilityNotes eligibility={eligibility.data} />}
              {eligibility.isError && <ErrorState compact error={eligibility.error} title="Couldn't check the channel" />}
              <AgentSwitch projectId={projectId} channelId={channelId} agent={agent} eligible={eligibility.data?.eligible ?? false} canWrite={canWrite} />
            </div>
          </CardBody>
        </Card>
        {agent && <AgentWorkspace key={agent.id} projectId={projectId} agent={agent} canWrite={canWrite} />}
      </div>
    );

  return (
    <div>
      <PageHeader
        title="Agent"
        description="A business agent answers customers on a channel by itself: FAQ answers, skills that call your tools, and a handoff to the inbox when they ask for a person."
      />
      {channels.data && agents.data && <RoutingNote projectId={projectId} channels={all} agents={agents.data.data} />}
      {body}
    </div>
  );
}
