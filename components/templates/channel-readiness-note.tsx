import Link from "next/link";
import { describeBlocker } from "@/components/channels/blockers";
import { AlertIcon, InfoIcon } from "@/components/ui";
import type { Channel } from "@/lib/client/channels";
import { canSubmitTemplates, channelLabel } from "./model/channels";
import { channelsPath } from "./paths";

function ChannelsLink({ projectId }: { projectId: string }) {
  return (
    <Link
      href={channelsPath(projectId)}
      className="font-medium text-indigo-700 hover:text-indigo-600 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      Channels
    </Link>
  );
}

/** What stands in the way on one channel, a blocker per line with its next step. */
function ChannelBlockers({ channel }: { channel: Channel }) {
  const blockers = channel.publish_readiness?.blockers ?? [];
  return (
    <li className="text-[13px]">
      <p className="font-medium text-slate-800">{channelLabel(channel)}</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-slate-600">
        {blockers.length === 0 && <li>The provider has not reported this number as ready yet.</li>}
        {blockers.map((code) => {
          const text = describeBlocker(code);
          return <li key={code}>{text ? `${text.problem} ${text.next}` : code}</li>;
        })}
      </ul>
    </li>
  );
}

/**
 * Why templates cannot be submitted here yet, when that is so: no dedicated PLATFORM_A number at all
 * (the shared sandbox cannot send templates), or numbers whose publish readiness has blockers.
 * Renders nothing once a channel can submit.
 */
export function ChannelReadinessNote({ projectId, candidates }: { projectId: string; candidates: readonly Channel[] }) {
  if (candidates.some(canSubmitTemplates)) return null;
  if (candidates.length === 0) {
    return (
      <div
        role="note"
        className="flex gap-3 rounded-lg bg-sky-50 px-4 py-3 text-[13px] text-sky-900 ring-1 ring-sky-600/15 ring-inset"
        data-testid="template-channel-note"
      >
        <InfoIcon className="mt-0.5 shrink-0 text-sky-600" />
        <p>
          Templates are submitted from a dedicated business messaging (PLATFORM_A) number: the shared sandbox can&apos;t send them, since templates belong to a
          business&apos;s own account. Connect your number on <ChannelsLink projectId={projectId} />, then come back to build one.
        </p>
      </div>
    );
  }
  return (
    <div role="note" className="rounded-lg bg-amber-50 px-4 py-3 ring-1 ring-amber-600/20 ring-inset" data-testid="template-channel-note">
      <p className="flex items-center gap-2 text-[13px] font-medium text-amber-900">
        <AlertIcon className="shrink-0 text-amber-600" />
        No channel can submit templates yet
      </p>
      <ul className="mt-2 space-y-2">
        {candidates.map((channel) => (
          <ChannelBlockers key={channel.id} channel={channel} />
        ))}
      </ul>
      <p className="mt-2 text-[13px] text-slate-600">
        Each number&apos;s readiness is on <ChannelsLink projectId={projectId} />.
      </p>
    </div>
  );
}
