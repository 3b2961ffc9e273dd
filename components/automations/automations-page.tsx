"use client";

import { useState } from "react";
import { Button, ButtonLink, EmptyState, ErrorState, PageHeader, PlusIcon, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { projectPath } from "@/components/shell/nav-links";
import { AutomationsIcon, ConfigIcon } from "@/components/ui/icons";
import { useAutomations } from "@/lib/client/automations";
import { can, useCurrentProject } from "@/lib/client/me";
import { AutomationCard } from "./automation-card";
import { ReviewDialog, type ReviewRequest } from "./review-dialog";
import { RoutingBanner } from "./routing-banner";

/**
 * /projects/[id]/automations: the project's automations in priority (config) order, each with its
 * trigger, steps, on/off switch and recent runs; New, Edit and Duplicate open the builder, and moving
 * or deleting one shows the change (the Config page's diff) first. The Config page edits the same
 * automations as YAML or JSON: both are one source of truth.
 */
export function AutomationsPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const automations = useAutomations(projectId);
  const [review, setReview] = useState<ReviewRequest | null>(null);
  const all = automations.data?.pages.flatMap((page) => page.data) ?? [];
  const configPath = projectPath(projectId, "config");
  const newPath = projectPath(projectId, "automations/new");

  return (
    <div>
      <PageHeader
        title="Automations"
        description="Replies svc sends by itself while inbound routing is Flows: keyword, welcome and any-message triggers, each running its steps in order. The first one in this list that matches a message runs."
        actions={
          <>
            <ButtonLink href={configPath} icon={<ConfigIcon />}>
              Edit as config
            </ButtonLink>
            {canWrite && (
              <ButtonLink href={newPath} variant="primary" icon={<PlusIcon />}>
                New automation
              </ButtonLink>
            )}
          </>
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
          description="Build one here (a trigger, then its steps), or list them under “automations” in the project's config document on the Config page."
          action={
            canWrite ? (
              <ButtonLink href={newPath} variant="primary" icon={<PlusIcon />}>
                New automation
              </ButtonLink>
            ) : (
              <ButtonLink href={configPath}>Open Config</ButtonLink>
            )
          }
        />
      ) : (
        <div className="space-y-5">
          {all.map((automation, index) => (
            <AutomationCard
              key={automation.id}
              projectId={projectId}
              automation={automation}
              canWrite={canWrite}
              place={{ index, count: all.length }}
              onReview={setReview}
            />
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
      <ReviewDialog projectId={projectId} request={review} onClose={() => setReview(null)} />
    </div>
  );
}
