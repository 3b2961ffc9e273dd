"use client";

import type { ReactNode } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { Badge, Card, CardBody, CopyButton, ErrorState, PageHeader, Skeleton, SkeletonGroup, SkeletonRows, Time } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useDelivery, useProjectSettings, type WebhookDeliveryDetail } from "@/lib/client/webhooks";
import { AttemptList } from "./attempt-list";
import { DeliveryStatusBadge, ResponseCode } from "./delivery-status-badge";
import { PayloadViewer } from "./payload-viewer";
import { RedeliverButton } from "./redeliver-button";

const TRIGGER_TEXT: Record<WebhookDeliveryDetail["trigger"], string> = {
  event: "The event happened",
  redeliver: "Redelivered by hand",
  replay: "Replayed",
};

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-1 flex min-w-0 items-center gap-1 text-sm text-slate-800">{children}</dd>
    </div>
  );
}

function Summary({ delivery }: { delivery: WebhookDeliveryDetail }) {
  return (
    <Card>
      <CardBody>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-4 lg:grid-cols-4">
          <Item label="Event ID">
            <span className="truncate font-mono text-[13px]">{delivery.event_id}</span>
            <CopyButton value={delivery.event_id} label="event ID" size="xs" />
          </Item>
          <Item label="Delivery ID">
            <span className="truncate font-mono text-[13px]">{delivery.id}</span>
            <CopyButton value={delivery.id} label="delivery ID" size="xs" />
          </Item>
          <Item label="Trigger">{TRIGGER_TEXT[delivery.trigger] ?? delivery.trigger}</Item>
          <Item label="Last response">
            {delivery.attempt_count === 0 ? (
              <span className="text-slate-500">Not sent yet</span>
            ) : (
              <ResponseCode code={delivery.last_status_code} error={delivery.last_error} />
            )}
          </Item>
          <Item label="Created">
            <Time value={delivery.created_at} format="absolute" />
          </Item>
          <Item label={delivery.completed_at ? "Completed" : "Next attempt"}>
            <Time value={delivery.completed_at ?? delivery.next_attempt_at} format={delivery.completed_at ? "absolute" : "relative"} fallback="—" />
          </Item>
          <Item label="Attempts">{delivery.attempt_count}</Item>
          <Item label="Event time">
            <Time value={delivery.event.created_at} format="absolute" />
          </Item>
        </dl>
      </CardBody>
    </Card>
  );
}

/** /projects/[id]/webhooks/[deliveryId]: one delivery's attempts, its payload, and Redeliver. */
export function DeliveryDetailPage({ projectId, deliveryId }: { projectId: string; deliveryId: string }) {
  const delivery = useDelivery(projectId, deliveryId);
  const project = useProjectSettings(projectId);
  const back = { href: projectPath(projectId, "webhooks"), label: "Webhooks" };

  if (delivery.isPending) {
    return (
      <SkeletonGroup label="Loading the delivery">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="mt-3 h-7 w-64" />
        <Skeleton className="mt-8 h-28 w-full" />
        <SkeletonRows className="mt-6" rows={3} columns={3} />
      </SkeletonGroup>
    );
  }
  if (delivery.isError) {
    const missing = isApiError(delivery.error) && delivery.error.status === 404;
    return (
      <>
        <PageHeader back={back} title="Delivery" />
        <ErrorState
          error={delivery.error}
          title={missing ? "This delivery doesn't exist in this project" : undefined}
          onRetry={missing ? undefined : () => void delivery.refetch()}
          retrying={delivery.isFetching}
        />
      </>
    );
  }

  const data = delivery.data;
  return (
    <div className="space-y-6">
      <PageHeader
        className="mb-0"
        back={back}
        title={<span className="font-mono text-lg sm:text-xl">{data.event_type}</span>}
        description={`Delivery of event ${data.event_id} to your webhook endpoint.`}
        meta={
          <>
            <DeliveryStatusBadge status={data.status} />
            {data.trigger !== "event" && <Badge tone="accent">{data.trigger === "redeliver" ? "Redelivery" : "Replay"}</Badge>}
            <span className="text-[13px] text-slate-500">
              Created <Time value={data.created_at} />
            </span>
          </>
        }
        actions={<RedeliverButton projectId={projectId} delivery={data} webhookUrl={project.data ? project.data.webhook_url : undefined} />}
      />
      <Summary delivery={data} />
      <AttemptList delivery={data} />
      <PayloadViewer event={data.event} />
    </div>
  );
}
