"use client";

import Link from "next/link";
import { AlertIcon, InfoIcon, cn } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { useChannels } from "@/lib/client/channels";
import { useProject } from "@/lib/client/projects";
import { routingNotice } from "./model/routing-notice";

/**
 * Says so when the automations on this page cannot fire (routing is not FLOWS), or fire only on some
 * channels. Quiet until the project and its channels are read: a wrong banner is worse than a late one.
 */
export function RoutingBanner({ projectId }: { projectId: string }) {
  const project = useProject(projectId);
  const channels = useChannels(projectId);
  if (!project.data || !channels.data) return null;
  const notice = routingNotice(
    project.data.routing_mode,
    channels.data.pages.flatMap((page) => page.data),
  );
  if (!notice) return null;
  const warning = notice.tone === "warning";
  const Icon = warning ? AlertIcon : InfoIcon;
  return (
    <div
      role={warning ? "alert" : "status"}
      data-routing-notice={notice.tone}
      className={cn(
        "mb-5 flex items-start gap-3 rounded-lg px-4 py-3 text-sm ring-1",
        warning ? "bg-amber-50 text-amber-900 ring-amber-600/25" : "bg-sky-50 text-sky-900 ring-sky-600/20",
      )}
    >
      <Icon className={cn("mt-0.5 shrink-0", warning ? "text-amber-600" : "text-sky-600")} />
      <div className="min-w-0">
        <p className="font-medium">{notice.title}</p>
        <p className="mt-0.5 text-[13px] opacity-90">
          {notice.detail}{" "}
          <Link
            href={warning ? projectPath(projectId) : projectPath(projectId, "channels")}
            className="font-medium underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {warning ? "Open the Overview" : "Open Channels"}
          </Link>
        </p>
      </div>
    </div>
  );
}
