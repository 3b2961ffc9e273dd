"use client";

import Link from "next/link";
import { TBody, TD, TH, THead, TR, Table, TableContainer, Time } from "@/components/ui";
import type { Broadcast } from "@/lib/client/broadcasts";
import { BroadcastStatusBadge } from "./broadcast-badges";
import { progressOf } from "./model/vocabulary";
import { broadcastPath } from "./paths";
import { BroadcastProgressBar } from "./progress-bar";

function BroadcastRow({ projectId, broadcast, channelName }: { projectId: string; broadcast: Broadcast; channelName: string }) {
  const progress = progressOf(broadcast.stats);
  return (
    <TR data-broadcast-id={broadcast.id} data-broadcast-name={broadcast.name}>
      <TD className="max-w-72">
        <Link
          href={broadcastPath(projectId, broadcast.id)}
          className="font-medium text-slate-900 hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {broadcast.name}
        </Link>
        <p className="mt-0.5 truncate font-mono text-xs text-slate-500">
          {broadcast.template.name} ({broadcast.template.language})
        </p>
      </TD>
      <TD>
        <BroadcastStatusBadge status={broadcast.status} />
      </TD>
      <TD className="w-56">
        <BroadcastProgressBar stats={broadcast.stats} size="sm" label={`Progress of ${broadcast.name}`} />
        <p className="mt-1 text-xs text-slate-500">
          {progress.delivered} of {progress.total} delivered
          {broadcast.stats.failed > 0 && <span className="text-red-700"> · {broadcast.stats.failed} failed</span>}
        </p>
      </TD>
      <TD className="max-w-40 truncate text-slate-600" title={broadcast.channel_id}>
        {channelName}
      </TD>
      <TD className="text-[13px] text-slate-600">
        {broadcast.status === "SCHEDULED" && broadcast.send_at ? (
          <>
            Starts <Time value={broadcast.send_at} format="absolute" />
          </>
        ) : (
          <>
            Created <Time value={broadcast.created_at} />
          </>
        )}
      </TD>
    </TR>
  );
}

/** The project's broadcasts, newest first, each with its state and a small progress bar. */
export function BroadcastsTable({
  projectId,
  broadcasts,
  channelNames,
}: {
  projectId: string;
  broadcasts: readonly Broadcast[];
  channelNames: ReadonlyMap<string, string>;
}) {
  return (
    <TableContainer label="Broadcasts">
      <Table caption="Broadcasts of this project">
        <THead>
          <tr>
            <TH>Name</TH>
            <TH>Status</TH>
            <TH>Progress</TH>
            <TH>Channel</TH>
            <TH>When</TH>
          </tr>
        </THead>
        <TBody>
          {broadcasts.map((broadcast) => (
            <BroadcastRow
              key={broadcast.id}
              projectId={projectId}
              broadcast={broadcast}
              channelName={channelNames.get(broadcast.channel_id) ?? broadcast.channel_id}
            />
          ))}
        </TBody>
      </Table>
    </TableContainer>
  );
}
