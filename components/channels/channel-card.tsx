"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { AlertIcon, Badge, Button, Card, ConfirmDialog, CopyButton, PlatformName, useToast } from "@/components/ui";
import { useDisconnectChannel, useUpdateChannelRouting, type Channel, type ChannelRoutingMode } from "@/lib/client/channels";
import type { ProjectSettings } from "@/lib/client/webhooks";
import { ROUTING_SENTENCES, effectiveRoutingOfWire } from "@/lib/shared/routing-modes";
import { ChannelStatusBadge, NumberModeBadge } from "./channel-badges";
import { PublishReadinessPanel } from "./publish-readiness";
import { RoutingModeControl } from "./routing-mode-control";

export function channelName(channel: Channel): string {
  return channel.display_name || channel.phone_number || channel.id;
}

/**
 * The server names the viewer's project "the project" / "your project" and any other by id ("its
 * project proj_…"), so only then are this project's settings the ones to look at.
 */
function mentionsThisProject(warning: string): boolean {
  return /\b(the|your) project\b/i.test(warning);
}

const linkClass =
  "font-medium underline underline-offset-2 hover:text-amber-950 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-indigo-600";

/** Where the next step happens when the channel's routing has nothing to answer with. */
const ANSWERER_PAGE = {
  FLOWS: { segment: "automations", label: "Turn an automation on in Automations" },
  AGENT: { segment: "agent", label: "Turn the agent on in Agent" },
} as const;

/** The warning the server computed, with the project settings it depends on right under it. */
function RoutingWarning({
  warning,
  channel,
  project,
  projectId,
}: {
  warning: string;
  channel: Channel;
  project: ProjectSettings | undefined;
  projectId: string;
}) {
  const ours = project && mentionsThisProject(warning);
  const mode = project ? effectiveRoutingOfWire(project.routing_mode, channel) : null;
  const answerer = mode === "FLOWS" || mode === "AGENT" ? ANSWERER_PAGE[mode] : null;
  return (
    <div className="flex gap-3 rounded-md bg-amber-50 px-3.5 py-3 ring-1 ring-amber-600/25 ring-inset" data-testid="routing-warning">
      <AlertIcon size={18} className="mt-px shrink-0 text-amber-600" />
      <div className="min-w-0 text-[13px]">
        <p className="font-semibold text-amber-900">Inbound messages may be lost</p>
        <p className="mt-0.5 text-amber-900/90">{warning}</p>
        {ours && (
          <p className="mt-1.5 text-amber-800">
            This project routes <span className="font-mono text-[12px]">{project.routing_mode}</span> and{" "}
            {project.webhook_url ? "has a webhook URL" : "has no webhook URL"}.{" "}
            {answerer && (
              <>
                <Link href={projectPath(projectId, answerer.segment)} className={linkClass}>
                  {answerer.label}
                </Link>
                {" · "}
              </>
            )}
            <Link href={projectPath(projectId)} className={linkClass}>
              Change project routing on Overview
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}

export interface ChannelCardProps {
  projectId: string;
  channel: Channel;
  project: ProjectSettings | undefined;
  canWrite: boolean;
}

/**
 * Disconnect (DELETE …/channels/{id}) behind a confirmation: only for dedicated channels that are not
 * disconnected yet, and only for roles that may write channels (the server checks channels:write too).
 */
function DisconnectChannel({ projectId, channel, name }: { projectId: string; channel: Channel; name: string }) {
  const disconnect = useDisconnectChannel(projectId);
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button size="sm" variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800" onClick={() => setConfirming(true)}>
        Disconnect
      </Button>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          disconnect.mutateAsync({ channelId: channel.id }).then((saved) => toast.show({ tone: "success", title: `${channelName(saved)} is disconnected` }))
        }
        title={`Disconnect ${name}?`}
        description="Its stored access token is deleted. Messages customers send to it are no longer received, and nothing can be sent through it. Its conversations and messages stay in the inbox. To use the number again, connect it again."
        confirmLabel="Disconnect channel"
      />
    </>
  );
}

/** One channel: who it is, how its inbound is routed (switchable), any routing warning, and publish readiness. */
export function ChannelCard({ projectId, channel, project, canWrite }: ChannelCardProps) {
  const update = useUpdateChannelRouting(projectId);
  const toast = useToast();
  // Boxed: null is a routing of its own ("follow the project").
  const [pending, setPending] = useState<{ mode: ChannelRoutingMode | null } | null>(null);
  const headingId = useId();
  const reasonId = useId();
  const name = channelName(channel);
  const isProjectNumber = project?.channel_id === channel.id;

  const change = (mode: ChannelRoutingMode | null) => {
    if (mode === channel.routing_mode) return;
    setPending({ mode });
    update.mutate(
      { channelId: channel.id, routingMode: mode },
      {
        onSuccess: (saved) =>
          toast.show({
            tone: saved.routing_warning ? "warning" : "success",
            title: saved.routing_mode
              ? `${channelName(saved)} now routes ${saved.routing_mode}`
              : `${channelName(saved)} now follows the project's routing${project ? ` (${project.routing_mode})` : ""}`,
            description: saved.routing_warning ? "Check the warning on the card." : undefined,
          }),
        onError: (error) => toast.show({ tone: "danger", title: "Couldn't change the routing", description: error.message }),
        onSettled: () => setPending(null),
      },
    );
  };

  const lockedReason = channel.is_sandbox
    ? "The shared sandbox routes each tester by the project they joined, so its own routing can't be set. Change the project's routing on Overview."
    : !canWrite
      ? "Your role can view channels but not change their routing."
      : channel.status === "disconnected"
        ? "This channel is disconnected, so nothing arrives to route. Connect the number again to use it."
        : null;

  return (
    <Card aria-labelledby={headingId} data-channel-id={channel.id}>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3.5 sm:px-5">
        <div className="min-w-0">
          <h2 id={headingId} className="truncate text-sm font-semibold text-slate-900">
            {name}
          </h2>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-[13px] text-slate-500">
            <PlatformName code={channel.platform} />
            {channel.phone_number && (
              <>
                <span aria-hidden="true">·</span>
                <span className="font-mono text-[12.5px]">{channel.phone_number}</span>
              </>
            )}
            <span aria-hidden="true">·</span>
            <span className="inline-flex items-center font-mono text-[12px]">
              {channel.id}
              <CopyButton value={channel.id} label={`channel ID of ${name}`} size="xs" />
            </span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-1.5">
          {isProjectNumber && <Badge tone="accent">This project's number</Badge>}
          <NumberModeBadge mode={channel.number_mode} />
          <ChannelStatusBadge status={channel.status} />
          {canWrite && !channel.is_sandbox && channel.status !== "disconnected" && <DisconnectChannel projectId={projectId} channel={channel} name={name} />}
        </div>
      </div>

      <div className="grid gap-6 px-4 py-4 sm:px-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:gap-8">
        <section aria-label={`Routing of ${name}`} className="min-w-0 space-y-3">
          <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">Inbound routing</h3>
          {channel.is_sandbox ? (
            <div className="space-y-1 text-[13px]">
              <p className="text-slate-700">
                Follows the project&apos;s routing
                {project && (
                  <>
                    :{" "}
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[12px] text-slate-800 ring-1 ring-slate-200 ring-inset">
                      {project.routing_mode}
                    </span>
                  </>
                )}
              </p>
              {project && (
                <p className="text-slate-600" data-testid="routing-sentence">
                  {ROUTING_SENTENCES[project.routing_mode]}
                </p>
              )}
            </div>
          ) : (
            <RoutingModeControl
              label={`Routing mode of ${name}`}
              value={pending ? pending.mode : channel.routing_mode}
              projectRouting={project?.routing_mode}
              onChange={change}
              disabled={lockedReason !== null}
              saving={update.isPending}
              describedBy={lockedReason ? reasonId : undefined}
            />
          )}
          {lockedReason && (
            <p id={reasonId} className="text-[13px] text-slate-500">
              {lockedReason}{" "}
              {channel.is_sandbox && (
                <Link
                  href={projectPath(projectId)}
                  className="font-medium text-indigo-700 hover:text-indigo-600 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  Open Overview
                </Link>
              )}
            </p>
          )}
          <div aria-live="polite" className={update.isPending ? "opacity-50 transition-opacity" : "transition-opacity"}>
            {channel.routing_warning && <RoutingWarning warning={channel.routing_warning} channel={channel} project={project} projectId={projectId} />}
          </div>
        </section>
        <section aria-label={`Publishing on ${name}`} className="min-w-0 space-y-3">
          <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">Publishing</h3>
          <PublishReadinessPanel readiness={channel.publish_readiness} />
        </section>
      </div>
    </Card>
  );
}
