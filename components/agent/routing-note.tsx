"use client";

import Link from "next/link";
import { InfoIcon } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { useProject } from "@/lib/client/projects";

/** The agent answers customers only while the project routes AGENT; say so (test and eval work either way). */
export function RoutingNote({ projectId }: { projectId: string }) {
  const project = useProject(projectId);
  if (!project.data || project.data.routing_mode === "AGENT") return null;
  return (
    <div
      role="status"
      data-routing-notice="agent"
      className="mb-5 flex items-start gap-3 rounded-lg bg-sky-50 px-4 py-3 text-sm text-sky-900 ring-1 ring-sky-600/20"
    >
      <InfoIcon className="mt-0.5 shrink-0 text-sky-600" />
      <p>
        Inbound routing is {project.data.routing_mode}: customers&apos; messages don&apos;t reach the agent yet (the test console and eval still work).{" "}
        <Link href={projectPath(projectId)} className="font-medium underline underline-offset-2">
          Switch routing to AGENT on the Overview
        </Link>
      </p>
    </div>
  );
}
