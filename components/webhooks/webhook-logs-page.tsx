"use client";

import { useState } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { Button, ButtonLink, EmptyState, ErrorState, PageHeader, RefreshIcon, SkeletonGroup, SkeletonRows, WebhookIcon } from "@/components/ui";
import { can, useCurrentProject } from "@/lib/client/me";
import { useDeliveries, useProjectSettings } from "@/lib/client/webhooks";
import { DeliveriesTable } from "./deliveries-table";
import { DeliveryChartCard } from "./delivery-chart-card";
import { DeliveryFilters } from "./delivery-filters";
import { ReplayDialog } from "./replay-dialog";
import { useLogParams } from "./use-log-params";
import { WebhookEndpointCard } from "./webhook-endpoint-card";

function DeliveriesSection({ projectId }: { projectId: string }) {
  const { params, filters, update, hasFilters } = useLogParams();
  const deliveries = useDeliveries(projectId, filters);
  const project = useProjectSettings(projectId);
  const rows = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  const polling = rows.some((d) => d.status === "pending");
  // Only a refresh the operator asked for shows a spinner: the 3 s polling must not make the button flicker.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void deliveries.refetch().finally(() => setRefreshing(false));
  };

  let content;
  if (deliveries.isPending) {
    content = (
      <SkeletonGroup label="Loading deliveries">
        <SkeletonRows rows={6} columns={6} />
      </SkeletonGroup>
    );
  } else if (deliveries.isError) {
    content = <ErrorState error={deliveries.error} onRetry={() => void deliveries.refetch()} retrying={deliveries.isFetching} />;
  } else if (rows.length === 0) {
    content = hasFilters ? (
      <EmptyState
        icon={<WebhookIcon />}
        title="No deliveries match these filters"
        description="Try another event type or status, or a longer time window."
        action={<Button onClick={() => update({ event: "", status: "", since: "" })}>Clear filters</Button>}
      />
    ) : (
      <EmptyState
        icon={<WebhookIcon />}
        title="No deliveries yet"
        description={
          project.data?.webhook_url
            ? "Deliveries show up here as events happen. Send a test message from the Sandbox phone to see the first one."
            : "Set a webhook URL on the Overview page, then send a test message from the Sandbox phone."
        }
        action={
          <>
            {!project.data?.webhook_url && (
              <ButtonLink href={projectPath(projectId)} variant="primary">
                Set a webhook URL
              </ButtonLink>
            )}
            <ButtonLink href={projectPath(projectId, "sandbox")}>Open the Sandbox phone</ButtonLink>
          </>
        }
      />
    );
  } else {
    content = (
      <>
        <DeliveriesTable projectId={projectId} deliveries={rows} />
        {deliveries.hasNextPage && (
          <div className="mt-4 flex justify-center">
            <Button onClick={() => void deliveries.fetchNextPage()} loading={deliveries.isFetchingNextPage}>
              Load more
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="deliveries-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="deliveries-heading" className="text-base font-semibold text-slate-900">
          Deliveries
        </h2>
        <div className="flex items-center gap-3 text-[13px] text-slate-500">
          {polling && (
            <span className="inline-flex items-center gap-1.5" title="Refreshes every 3 seconds while a delivery is pending.">
              <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-sky-500" />
              Updating live
            </span>
          )}
          <Button size="sm" variant="ghost" icon={<RefreshIcon />} onClick={refresh} loading={refreshing}>
            Refresh
          </Button>
        </div>
      </div>
      <DeliveryFilters params={params} onChange={update} hasFilters={hasFilters} />
      {content}
    </section>
  );
}

function ChartSection({ projectId }: { projectId: string }) {
  const { params, update } = useLogParams();
  return <DeliveryChartCard projectId={projectId} range={params.range} onRangeChange={(range) => update({ range })} />;
}

/** /projects/[id]/webhooks: where events go, how delivery is going, and every delivery with its attempts. */
export function WebhookLogsPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const [replayOpen, setReplayOpen] = useState(false);
  const [replayKey, setReplayKey] = useState(0);
  const canWrite = can(role, "write");

  return (
    <div className="space-y-6">
      <PageHeader
        className="mb-0"
        title="Webhooks"
        description="Every event svc sends to your endpoint, each attempt it made and what your server answered."
        actions={
          canWrite ? (
            <Button
              onClick={() => {
                setReplayKey((k) => k + 1);
                setReplayOpen(true);
              }}
              icon={<RefreshIcon />}
            >
              Replay events
            </Button>
          ) : undefined
        }
      />
      <WebhookEndpointCard projectId={projectId} />
      <ChartSection projectId={projectId} />
      <DeliveriesSection projectId={projectId} />
      {canWrite && <ReplayDialog key={replayKey} projectId={projectId} open={replayOpen} onClose={() => setReplayOpen(false)} />}
    </div>
  );
}
