"use client";

import { CopyButton, ErrorState, PageHeader, Skeleton, SkeletonGroup, SkeletonText } from "@/components/ui";
import { can, useCurrentProject } from "@/lib/client/me";
import { useProject, useSandboxChannel } from "@/lib/client/projects";
import { QuickStartCard } from "./quick-start-card";
import { ReadinessPanel } from "./readiness-panel";
import { RegistrationCard } from "./registration-card";
import { SandboxCard } from "./sandbox-card";
import { SettingsCard } from "./settings-card";
import { WebhookCard } from "./webhook-card";

/** The project's home: is it ready, and the few settings every integration needs. */
export function ProjectOverview({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const project = useProject(projectId);
  const sandbox = useSandboxChannel(projectId);
  const canWrite = can(role, "write");

  // The channel list is the source; the project's enrollment channel is the same sandbox when that list is slow or refused.
  const enrollment = project.data?.enrollment_channel;
  const sandboxChannel = sandbox.data ?? (enrollment?.number_mode === "sandbox" ? enrollment : null);
  const sandboxNumber = sandboxChannel?.phone_number ?? null;

  return (
    <div className="space-y-6">
      <PageHeader
        title={project.data?.name ?? "Overview"}
        description={project.data?.description || "Readiness, webhook and settings of this project."}
        meta={
          <span className="inline-flex items-center gap-1 text-xs text-slate-500">
            Project ID <code className="font-mono text-slate-700">{projectId}</code>
            <CopyButton value={projectId} label="project ID" size="xs" />
          </span>
        }
        className="mb-0"
      />

      <ReadinessPanel projectId={projectId} context={{ joinCode: project.data?.join_code, sandboxNumber }} />

      {project.isPending ? (
        <SkeletonGroup label="Loading project settings" className="grid gap-6 lg:grid-cols-2">
          {Array.from({ length: 4 }, (_, index) => (
            <div key={index} className="space-y-4 rounded-lg bg-white p-5 ring-1 ring-slate-200">
              <Skeleton className="h-4 w-32" />
              <SkeletonText lines={3} />
              <Skeleton className="h-9 w-full" />
            </div>
          ))}
        </SkeletonGroup>
      ) : project.isError ? (
        <ErrorState error={project.error} title="Couldn't load the project" onRetry={() => void project.refetch()} retrying={project.isFetching} />
      ) : (
        <>
          <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
            <SandboxCard project={project.data} sandboxNumber={sandboxNumber} numberLoading={sandbox.isPending && !enrollment} />
            <QuickStartCard projectId={projectId} channelId={sandboxChannel?.id ?? "ch_sandbox"} />
          </div>
          <RegistrationCard projectId={projectId} canWrite={canWrite} />
          <WebhookCard project={project.data} canWrite={canWrite} />
          <SettingsCard project={project.data} canWrite={canWrite} />
        </>
      )}
    </div>
  );
}
