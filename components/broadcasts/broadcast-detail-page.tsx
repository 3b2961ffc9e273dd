"use client";

import type { ReactNode } from "react";
import { AlertIcon, Card, CardBody, ErrorState, PageHeader, SkeletonGroup, SkeletonRows, SkeletonText, Time } from "@/components/ui";
import { useTemplateChannels } from "@/components/templates/use-template-channels";
import { isApiError } from "@/lib/client/api";
import { pollIntervalOf, useBroadcast, type Broadcast } from "@/lib/client/broadcasts";
import { can, useCurrentProject } from "@/lib/client/me";
import { BroadcastActions } from "./broadcast-actions";
import { BroadcastStatusBadge } from "./broadcast-badges";
import { availableActions, pauseReasonText, progressOf, STAT_TILES, tileValues, unknownOutcomeWords } from "./model/vocabulary";
import { broadcastsPath } from "./paths";
import { BroadcastProgressBar } from "./progress-bar";
import { RecipientsPanel } from "./recipients-panel";
import { RecipientsTable } from "./recipients-table";

function Stat({ label, value, name, hint }: { label: string; value: number; name: string; hint: string }) {
  return (
    <div className="min-w-0" title={hint}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums" data-stat={name}>
        {value}
      </dd>
    </div>
  );
}

function When({ label, children }: { label: string; children: ReactNode }) {
  return (
    <p>
      <span className="text-slate-500">{label}</span> {children}
    </p>
  );
}

/** The live numbers: the bar, "N of M delivered", the tiles (sent → delivered → read as a funnel), and when it started or will. */
function ProgressCard({ broadcast }: { broadcast: Broadcast }) {
  const progress = progressOf(broadcast.stats);
  const values = tileValues(broadcast.stats);
  return (
    <Card>
      <CardBody className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-sm text-slate-700" data-testid="broadcast-progress-text">
            <span className="font-semibold text-slate-900">{progress.delivered}</span> of {progress.total} delivered · {progress.percent}% processed
          </p>
          <div className="flex flex-wrap gap-x-4 text-[13px]">
            {broadcast.send_at && (
              <When label={broadcast.started_at ? "Scheduled for" : "Starts"}>
                <Time value={broadcast.send_at} format="absolute" />
              </When>
            )}
            {broadcast.started_at && (
              <When label="Started">
                <Time value={broadcast.started_at} />
              </When>
            )}
            {broadcast.completed_at && (
              <When label="Finished">
                <Time value={broadcast.completed_at} />
              </When>
            )}
          </div>
        </div>
        <BroadcastProgressBar stats={broadcast.stats} />
        <dl className="grid grid-cols-3 gap-x-6 gap-y-4 sm:grid-cols-5 lg:grid-cols-9">
          {STAT_TILES.map((tile) => (
            <Stat key={tile.key} name={tile.key} label={tile.label} hint={tile.hint} value={values[tile.key]} />
          ))}
        </dl>
        <p className="text-xs text-slate-500">
          Sent, Delivered and Read count everyone who got at least that far; the filter below lists each recipient by where it is now.
        </p>
      </CardBody>
    </Card>
  );
}

function PauseNote({ reason }: { reason: string | null }) {
  const text = pauseReasonText(reason);
  if (!text) return null;
  return (
    <p
      role="note"
      data-testid="pause-reason"
      className="flex gap-2 rounded-lg bg-amber-50 px-4 py-3 text-[13px] text-amber-900 ring-1 ring-amber-600/20 ring-inset"
    >
      <AlertIcon className="mt-0.5 shrink-0 text-amber-600" />
      {text}
    </p>
  );
}

/** How many sends have an unknown outcome, why they were not sent again, and that they can be resent on purpose. */
function UnknownOutcomeNote({ broadcast }: { broadcast: Broadcast }) {
  const count = broadcast.stats.outcome_unknown;
  if (count === 0) return null;
  return (
    <p
      role="note"
      data-testid="outcome-unknown"
      className="flex gap-2 rounded-lg bg-amber-50 px-4 py-3 text-[13px] text-amber-900 ring-1 ring-amber-600/20 ring-inset"
    >
      <AlertIcon className="mt-0.5 shrink-0 text-amber-600" />
      {unknownOutcomeWords(count, broadcast.status).note}
    </p>
  );
}

/** /projects/[id]/broadcasts/[broadcastId]: one broadcast, live while it sends, with its recipients and controls. */
export function BroadcastDetailPage({ projectId, broadcastId }: { projectId: string; broadcastId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const query = useBroadcast(projectId, broadcastId);
  const channels = useTemplateChannels(projectId);
  const back = { href: broadcastsPath(projectId), label: "Broadcasts" };

  if (query.isPending) {
    return (
      <SkeletonGroup label="Loading broadcast">
        <SkeletonText lines={2} />
        <SkeletonRows rows={4} columns={5} />
      </SkeletonGroup>
    );
  }
  if (query.isError) {
    const missing = isApiError(query.error) && query.error.status === 404;
    return (
      <>
        <PageHeader title="Broadcast" back={back} />
        <ErrorState
          error={query.error}
          title={missing ? "No such broadcast in this project" : "Couldn't load this broadcast"}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  const broadcast = query.data;
  const channelName = channels.names.get(broadcast.channel_id) ?? broadcast.channel_id;
  return (
    <div className="space-y-5">
      <PageHeader
        className="mb-0"
        title={broadcast.name}
        back={back}
        description={
          <>
            Template <span className="font-mono">{broadcast.template.name}</span> ({broadcast.template.language}) on {channelName}.
          </>
        }
        meta={<BroadcastStatusBadge status={broadcast.status} />}
        actions={canWrite && <BroadcastActions projectId={projectId} broadcast={broadcast} channelName={channelName} />}
      />
      {broadcast.status === "PAUSED" && <PauseNote reason={broadcast.pause_reason} />}
      <UnknownOutcomeNote broadcast={broadcast} />
      <ProgressCard broadcast={broadcast} />
      {canWrite && availableActions(broadcast).addRecipients && (
        <RecipientsPanel projectId={projectId} broadcastId={broadcast.id} templateId={broadcast.template.id} />
      )}
      <RecipientsTable projectId={projectId} broadcastId={broadcast.id} pollMs={pollIntervalOf(broadcast)} />
    </div>
  );
}
