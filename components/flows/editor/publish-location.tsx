"use client";

import { ChannelsIcon } from "@/components/ui";
import { useFlowChannels, type Flow } from "@/lib/client/flows";
import { publishLocation } from "../model/flow-channels";

/**
 * Where the flow is published, by the channel's name: the project's own number once it has one, the
 * shared sandbox before that (a publish goes to the project's channel, so the operator should see
 * which before pressing Publish), and any other channel it was published on to be sent from there.
 */
export function PublishLocation({ projectId, flow }: { projectId: string; flow: Flow }) {
  const channels = useFlowChannels(projectId, flow);
  if (!channels.data) return null;
  const where = publishLocation(flow, channels.data);
  return (
    <div data-testid="publish-location" className="flex gap-2.5 rounded-lg bg-white px-4 py-2.5 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset">
      <ChannelsIcon size={16} className="mt-0.5 shrink-0 text-slate-500" aria-hidden />
      <div className="min-w-0 space-y-0.5">
        <p>
          <span className="font-medium text-slate-900">{where.headline}</span>
          {where.account && <span className="text-slate-600"> Business account {where.account}.</span>}
        </p>
        {where.notes.map((note) => (
          <p key={note}>{note}</p>
        ))}
      </div>
    </div>
  );
}
