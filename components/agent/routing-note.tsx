"use client";

import Link from "next/link";
import { InfoIcon } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import type { BusinessAgent } from "@/lib/client/agents";
import type { Channel } from "@/lib/client/channels";
import { useProject } from "@/lib/client/projects";
import { ROUTING_RULE } from "@/lib/shared/routing-modes";
import { answeringChannels } from "./model/answering-channels";

const linkClass = "font-medium underline underline-offset-2 focus-visible:rounded-sm focus-visible:outline-2 focus-visible:outline-indigo-600";

/**
 * Which channels the agent answers customers on, by name, and why not on the others (test and eval
 * work either way). Quiet until the project is read: a wrong list is worse than a late one.
 */
export function RoutingNote({ projectId, channels, agents }: { projectId: string; channels: readonly Channel[]; agents: readonly BusinessAgent[] }) {
  const project = useProject(projectId);
  if (!project.data) return null;
  const reach = answeringChannels(project.data.routing_mode, project.data.channel_id, channels, agents);
  const answering = reach.filter((r) => r.answers);
  const silent = reach.filter((r) => !r.answers);
  return (
    <section
      aria-label="Where the agent answers"
      data-routing-notice="agent"
      className="mb-5 flex items-start gap-3 rounded-lg bg-sky-50 px-4 py-3 text-sm text-sky-950 ring-1 ring-sky-600/20"
    >
      <InfoIcon className="mt-0.5 shrink-0 text-sky-700" />
      <div className="min-w-0 space-y-1.5">
        <p className="font-medium" data-testid="agent-answers-on">
          {answering.length
            ? `The agent answers customers on ${answering.map((r) => r.name).join(", ")}.`
            : "The agent answers customers on no channel yet (the test console and eval still work)."}
        </p>
        {silent.length > 0 && (
          <ul aria-label="Channels the agent does not answer on" className="list-disc space-y-0.5 pl-4 text-[13px]">
            {silent.map((r) => (
              <li key={r.channelId} data-channel-id={r.channelId}>
                <span className="font-medium">{r.name}</span>: {r.why}
              </li>
            ))}
          </ul>
        )}
        <p className="text-[13px]">
          {ROUTING_RULE}{" "}
          <Link href={projectPath(projectId)} className={linkClass}>
            Project routing on the Overview
          </Link>
          {" · "}
          <Link href={projectPath(projectId, "channels")} className={linkClass}>
            Channels
          </Link>
        </p>
      </div>
    </section>
  );
}
