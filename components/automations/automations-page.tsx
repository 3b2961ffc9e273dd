"use client";

import { Button, ButtonLink, EmptyState, ErrorState, PageHeader, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { AutomationsIcon, ConfigIcon } from "@/components/ui/icons";
import { useAutomations } from "@/lib/client/automations";
import { can, useCurrentProject } from "@/lib/client/me";
import { AutomationCard } from "./automation-card";
import { RoutingBanner } from "./routing-banner";

/**
 * /projects/[id]/automations: the automations config-as-code defined, in config order, each with its
 * trigger, steps, on/off switch and recent runs. They are edited on the Config page, not here.
 */
export function AutomationsPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const automations = useAutomations(projectId);
  const all = automations.data?.pages.flatMap((page) => page.data) ?? [];
  const configPath = projectPath(projectId, "config");

  return (
    <div>
      <PageHeader
        title="Automations"
        description="Replies svc sends by itself while inbound routing is FLOWS: keyword, welcome and any-message triggers, each running its steps in order. They are defined in config; here you switch them on or off and follow their runs."
        actions={
          <ButtonLink href={configPath} icon={<ConfigIcon />}>
            Edit in Config
          </ButtonLink>
        }
      />
      <RoutingBanner projectId={projectId} />
      {automations.isPending ? (
        <SkeletonGroup label="Loading automations">
          <SkeletonRows rows={3} columns={3} />
        </SkeletonGroup>
      ) : automations.isError ? (
        <ErrorState error={automations.error} title="Couldn't load automations" onRetry={() => void automations.refetch()} retrying={automations.isFetching} />
      ) : all.length === 0 ? (
        <EmptyState
          icon={<AutomationsIcon />}
          title="No automations yet"
          description="Automations are defined in config: list them under “automations” in the project's config document and apply it on the Config page."
          action={
            <ButtonLink href={configPath} variant="primary">
              Open Config
            </ButtonLink>
          }
        />
      ) : (
        <div className="space-y-5">
          {all.map((automation) => (
            <AutomationCard key={automation.id} projectId={projectId} automation={automation} canWrite={canWrite} />
          ))}
          {automations.hasNextPage && (
            <div className="flex justify-center">
              <Button onClick={() => void automations.fetchNextPage()} loading={automations.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
