"use client";

import Link from "next/link";
import { useState } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { Button, Card, ChannelsIcon, EmptyState, ErrorState, PageHeader, PlusIcon, Skeleton, SkeletonGroup, SkeletonText } from "@/components/ui";
import { useChannels } from "@/lib/client/channels";
import { can, useCurrentProject } from "@/lib/client/me";
import { useProjectSettings } from "@/lib/client/webhooks";
import { ROUTING_RULE } from "@/lib/shared/routing-modes";
import { ChannelCard } from "./channel-card";
import { ConnectChannelDialog } from "./connect-channel-dialog";

function LoadingCards() {
  return (
    <SkeletonGroup label="Loading channels" className="space-y-4">
      {[0, 1].map((i) => (
        <Card key={i} className="p-5">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="mt-2 h-3 w-64" />
          <div className="mt-6 grid gap-8 lg:grid-cols-2">
            <SkeletonText lines={3} />
            <SkeletonText lines={3} />
          </div>
        </Card>
      ))}
    </SkeletonGroup>
  );
}

function ProjectRoutingNote({ projectId }: { projectId: string }) {
  const project = useProjectSettings(projectId);
  if (!project.data) return null;
  const { routing_mode: routing, webhook_url: url } = project.data;
  return (
    <p className="text-[13px] text-slate-600">
      This project routes{" "}
      <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[12px] text-slate-800 ring-1 ring-slate-200 ring-inset">{routing}</span>{" "}
      {url ? "and has a webhook URL" : "and has no webhook URL yet"}. <span data-testid="routing-rule">{ROUTING_RULE}</span>{" "}
      <Link
        href={projectPath(projectId)}
        className="font-medium text-indigo-700 hover:text-indigo-600 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        Project settings
      </Link>
    </p>
  );
}

/** /projects/[id]/channels: every channel the project can use, its routing and whether it is ready to publish. */
export function ChannelsPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const channels = useChannels(projectId);
  const project = useProjectSettings(projectId);
  const [connectOpen, setConnectOpen] = useState(false);
  const rows = channels.data?.pages.flatMap((page) => page.data) ?? [];
  const dedicated = rows.filter((c) => !c.is_sandbox);

  const connectButton = (
    <Button
      variant="primary"
      icon={<PlusIcon />}
      onClick={() => setConnectOpen(true)}
      disabled={!canWrite}
      title={canWrite || !role ? undefined : "Your role can't connect channels."}
    >
      Connect a channel
    </Button>
  );

  let content;
  if (channels.isPending) content = <LoadingCards />;
  else if (channels.isError) content = <ErrorState error={channels.error} onRetry={() => void channels.refetch()} retrying={channels.isFetching} />;
  else
    content = (
      <div className="space-y-4">
        {rows.map((channel) => (
          <ChannelCard key={channel.id} projectId={projectId} channel={channel} project={project.data} canWrite={canWrite} />
        ))}
        {dedicated.length === 0 && (
          <EmptyState
            icon={<ChannelsIcon />}
            title="No channels of your own yet"
            description="Test on the shared sandbox as long as you like. When you go live, connect your own number or account so customers reach you directly."
            action={
              canWrite ? (
                <Button variant="primary" icon={<PlusIcon />} onClick={() => setConnectOpen(true)}>
                  Connect your first channel
                </Button>
              ) : undefined
            }
          />
        )}
        {channels.hasNextPage && (
          <div className="flex justify-center">
            <Button onClick={() => void channels.fetchNextPage()} loading={channels.isFetchingNextPage}>
              Load more
            </Button>
          </div>
        )}
      </div>
    );

  return (
    <div className="space-y-5">
      <PageHeader
        className="mb-0"
        title="Channels"
        description="The numbers and accounts messages arrive on, and where each sends its inbound messages."
        actions={connectButton}
        meta={!canWrite && role ? <span className="text-[13px] text-slate-500">Viewers can look but not change channels.</span> : undefined}
      />
      <ProjectRoutingNote projectId={projectId} />
      {content}
      {canWrite && (
        <ConnectChannelDialog projectId={projectId} open={connectOpen} onClose={() => setConnectOpen(false)} projectRouting={project.data?.routing_mode} />
      )}
    </div>
  );
}
