"use client";

import { projectPath } from "@/components/shell/nav-links";
import { ChevronRightIcon, TBody, TD, TH, THead, TR, Table, TableContainer, Time, RowLink } from "@/components/ui";
import type { WebhookDelivery } from "@/lib/client/webhooks";
import { DeliveryStatusBadge, ResponseCode } from "./delivery-status-badge";
import { formatDuration } from "./format";

export function deliveryPath(projectId: string, deliveryId: string): string {
  return projectPath(projectId, `webhooks/${encodeURIComponent(deliveryId)}`);
}

const TRIGGER_LABELS: Record<WebhookDelivery["trigger"], string | null> = { event: null, redeliver: "Redelivery", replay: "Replay" };

/** The deliveries list: one row per delivery, the event type links to its attempts and payload. */
export function DeliveriesTable({ projectId, deliveries }: { projectId: string; deliveries: WebhookDelivery[] }) {
  return (
    <>
      <TableContainer label="Webhook deliveries" className="hidden sm:block">
        <Table caption="Webhook deliveries, newest first">
          <THead>
            <tr>
              <TH>Status</TH>
              <TH>Event</TH>
              <TH className="text-right">Attempts</TH>
              <TH>Last response</TH>
              <TH className="text-right">Latency</TH>
              <TH>Created</TH>
              <TH>
                <span className="sr-only">Details</span>
              </TH>
            </tr>
          </THead>
          <TBody>
            {deliveries.map((delivery) => {
              const href = deliveryPath(projectId, delivery.id);
              const duration = delivery.last_duration_ms;
              const trigger = TRIGGER_LABELS[delivery.trigger];
              return (
                <TR key={delivery.id} interactive className="relative" data-delivery-id={delivery.id}>
                  <TD>
                    <DeliveryStatusBadge status={delivery.status} />
                  </TD>
                  <TD>
                    <RowLink href={href} mono>
                      {delivery.event_type}
                    </RowLink>
                    {trigger && <span className="ml-2 text-xs text-slate-500">{trigger}</span>}
                  </TD>
                  <TD numeric>{delivery.attempt_count}</TD>
                  <TD>
                    {delivery.attempt_count === 0 ? (
                      <span className="text-slate-500">Not sent yet</span>
                    ) : (
                      <ResponseCode code={delivery.last_status_code} error={delivery.last_error} />
                    )}
                  </TD>
                  <TD numeric className="text-slate-600">
                    {duration === null ? "—" : formatDuration(duration)}
                  </TD>
                  <TD className="text-slate-600">
                    <Time value={delivery.created_at} />
                  </TD>
                  <TD className="w-8 pr-3 text-slate-400">
                    <ChevronRightIcon />
                  </TD>
                </TR>
              );
            })}
          </TBody>
        </Table>
      </TableContainer>
      {/* Phones: a stacked list instead of a table that would scroll sideways. */}
      <ul aria-label="Webhook deliveries" className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200 sm:hidden">
        {deliveries.map((delivery) => {
          const duration = delivery.last_duration_ms;
          const trigger = TRIGGER_LABELS[delivery.trigger];
          return (
            <li key={delivery.id} className="relative flex items-center gap-3 px-4 py-3 transition-colors hover:bg-slate-50">
              <div className="min-w-0 flex-1 space-y-1.5">
                <div className="flex items-center justify-between gap-2">
                  <RowLink href={deliveryPath(projectId, delivery.id)} mono className="truncate">
                    {delivery.event_type}
                  </RowLink>
                  <DeliveryStatusBadge status={delivery.status} />
                </div>
                <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
                  <span>
                    {delivery.attempt_count} {delivery.attempt_count === 1 ? "attempt" : "attempts"}
                  </span>
                  {delivery.attempt_count > 0 && (
                    <>
                      <span aria-hidden="true">·</span>
                      <ResponseCode code={delivery.last_status_code} error={delivery.last_error} />
                    </>
                  )}
                  {typeof duration === "number" && (
                    <>
                      <span aria-hidden="true">·</span>
                      <span>{formatDuration(duration)}</span>
                    </>
                  )}
                  <span aria-hidden="true">·</span>
                  <Time value={delivery.created_at} />
                  {trigger && (
                    <>
                      <span aria-hidden="true">·</span>
                      <span>{trigger}</span>
                    </>
                  )}
                </p>
              </div>
              <ChevronRightIcon className="shrink-0 text-slate-400" />
            </li>
          );
        })}
      </ul>
    </>
  );
}
